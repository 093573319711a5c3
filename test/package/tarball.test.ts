// The package as others get it: `npm pack`, installed into a fresh project, its `steward` binary
// run, and `import { check } from '@steward-pac/steward'` type-checked against the shipped
// declarations (a wrong call must fail to compile, so the types are real).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../../src/core/package-name.js';
import { tempDir } from '../cli/helpers.js';

const ROOT = path.resolve('.');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the packed tarball', () => {
  it('installs, runs, and type-checks', { timeout: 180_000 }, () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
    expect(pkg.name).toBe(PACKAGE_NAME);
    const out = tempDir('steward-pack-');
    // dist/ is fresh (npm test builds first): the prepack build is not run again.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[];
    const files = packed[0].files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'dist/cli.js', 'dist/index.js', 'dist/types/index.d.ts', 'policies/queues.yaml', 'schema/config.schema.json']));
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

    const project = tempDir('steward-consumer-');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(out, packed[0].filename)], { cwd: project, stdio: 'pipe' });

    const bin = path.join(project, 'node_modules/.bin/steward');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')} \\(commit [0-9a-f]{12}\\)\n$`));
    expect(execFileSync(bin, ['list', '--config', 'builtin', '--format', 'json'], { cwd: project, encoding: 'utf8' })).toContain('"id": "queue-no-admin-for-users"');

    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, typeRoots: [path.join(ROOT, 'node_modules/@types')], types: ['node'] }, files: ['use.ts'] }),
    );
    writeFileSync(
      path.join(project, 'use.ts'),
      `import { check, type Report } from '${PACKAGE_NAME}';\nimport { startSandbox } from '${PACKAGE_NAME}/sandbox';\nexport const run: Promise<Report> = check({ failOn: 'high' });\nexport const sandbox = startSandbox;\n`,
    );
    const ok = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    writeFileSync(path.join(project, 'use.ts'), `import { check } from '${PACKAGE_NAME}';\nexport const run = check({ failOn: 'sometimes' });\n`);
    const wrong = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain("Type '\"sometimes\"' is not assignable");
  });
});
