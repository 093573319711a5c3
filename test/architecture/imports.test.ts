// The layering rules of DESIGN §1, checked on the import graph of src/: the client knows no
// policies, the engine does no HTTP, only the Action imports @actions/core, and no cycles.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** file (relative to src, `/` separated) → the specifiers it imports, type-only ones excluded. */
function importGraph(): Map<string, { local: string[]; packages: string[] }> {
  const graph = new Map<string, { local: string[]; packages: string[] }>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
    specs.push(...[...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]));
    const local = specs
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))).split('\\').join('/'));
    const packages = specs.filter((s) => !s.startsWith('.'));
    graph.set(relative(SRC, file).split('\\').join('/'), { local, packages });
  }
  return graph;
}

const graph = importGraph();

/** file → the local files it imports, type-only imports included. */
function fullGraph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]);
    const local = specs.map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))).split('\\').join('/'));
    out.set(relative(SRC, file).split('\\').join('/'), local);
  }
  return out;
}

const full = fullGraph();
/** A file's folder under src/ (root files are their own "folder", e.g. `index.ts`). */
const folder = (file: string) => (file.includes('/') ? file.split('/')[0] : file);

/**
 * The layers, lowest first: a folder imports only folders of lower layers (type imports too).
 * report depends on core only; the sandbox is reached only by the CLI (and tests, benchmarks).
 */
const LAYERS: Record<string, number> = {
  core: 0,
  io: 1,
  api: 2,
  resources: 3,
  config: 4,
  policy: 4,
  engine: 5,
  fix: 6,
  history: 6,
  library: 7,
  'index.ts': 8,
  cli: 8,
  action: 8,
};
const ALLOWED_EXTRA: Record<string, string[]> = {
  report: ['core'],
  sandbox: ['core', 'io', 'api'],
  cli: ['report', 'sandbox'],
  action: ['report'],
};

/** Folder-level edges (type imports included), each with one example file edge. */
function folderEdges(): Map<string, string> {
  const edges = new Map<string, string>();
  for (const [file, targets] of full) {
    for (const t of targets) {
      const [a, b] = [folder(file), folder(t)];
      if (a !== b && !edges.has(`${a} → ${b}`)) edges.set(`${a} → ${b}`, `${file} → ${t}`);
    }
  }
  return edges;
}
const area = (file: string) => file.split('/')[0];

/** Every file `start` reaches by its imports, type-only ones excluded (itself included). */
function reachedFrom(start: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const t of graph.get(file)?.local ?? []) walk(t);
  };
  walk(start);
  return seen;
}

describe('import layering', () => {
  it('reads a non-trivial graph', () => {
    expect(graph.size).toBeGreaterThan(50);
  });

  it('src/client imports nothing about policies, resources, the engine or reports', () => {
    const offending = [...graph].flatMap(([file, { local }]) =>
      area(file) === 'client' ? local.filter((t) => ['policy', 'engine', 'resources', 'report', 'fix'].includes(area(t))).map((t) => `${file} → ${t}`) : [],
    );
    expect(offending).toEqual([]);
  });

  it('src/engine does no HTTP (no client implementation, no fetch library)', () => {
    const offending = [...graph].flatMap(([file, { local, packages }]) =>
      area(file) === 'engine'
        ? [
            ...local.filter((t) => area(t) === 'client' && !t.endsWith('types.ts')).map((t) => `${file} → ${t}`),
            ...packages.filter((p) => ['ofetch', 'node:http', 'node:https', 'undici'].includes(p)).map((p) => `${file} → ${p}`),
          ]
        : [],
    );
    expect(offending).toEqual([]);
  });

  it('only src/action imports @actions/core', () => {
    const offending = [...graph].filter(([file, { packages }]) => area(file) !== 'action' && packages.some((p) => p.startsWith('@actions/'))).map(([f]) => f);
    expect(offending).toEqual([]);
  });

  it('has no import cycles, type imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, stack: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of full.get(file) ?? []) visit(next, [...stack, file]);
      state.set(file, 'done');
    };
    for (const file of full.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('folders follow the layers core ← io ← api ← resources ← {config, policy} ← engine ← fix ← library ← {cli, action}, type imports included', () => {
    const offending: string[] = [];
    for (const [edge, example] of folderEdges()) {
      const [a, b] = edge.split(' → ');
      const layered = a in LAYERS && b in LAYERS && LAYERS[b] < LAYERS[a];
      const extra = ALLOWED_EXTRA[a]?.includes(b) ?? false;
      // The shells reach the library only through its entries (checked edge by edge below).
      const shellThroughEntry = (a === 'cli' || a === 'action') && b in LAYERS ? b === 'library' : true;
      if (!(layered || extra) || !shellThroughEntry) offending.push(example);
    }
    expect(offending).toEqual([]);
  });

  it('the shells reach the library only through index.ts, startup.ts (what the CLI needs before it loads a command) or without-policies.ts (what the commands that compile no policy need)', () => {
    const entries = ['library/index.ts', 'library/startup.ts', 'library/without-policies.ts'];
    const offending = [...full].flatMap(([file, targets]) =>
      ['cli', 'action'].includes(folder(file)) ? targets.filter((t) => folder(t) === 'library' && !entries.includes(t)).map((t) => `${file} → ${t}`) : [],
    );
    expect(offending).toEqual([]);
    // Nothing startup.ts reaches loads a package but Node's own: it is what `steward --help` runs on.
    const reached = reachedFrom('library/startup.ts');
    expect([...reached].flatMap((f) => graph.get(f)?.packages ?? []).filter((p) => !p.startsWith('node:'))).toEqual([]);
    expect(reached.size).toBeGreaterThan(3);
    // Nothing without-policies.ts reaches loads CEL or protobuf: the commands that compile no
    // policy (merge, diff, history, notify, issues, waive, init) load it, by import(), when they run.
    const files = reachedFrom('library/without-policies.ts');
    expect(files.has('library/index.ts')).toBe(false);
    expect([...files].flatMap((f) => graph.get(f)?.packages ?? []).filter((p) => p.startsWith('@bufbuild/'))).toEqual([]);
  });

  it("a command's module declares its flags on startup.ts alone: what it imports loads no package but commander, and its body is one module its actions import() when they run", () => {
    const commands = [...graph.keys()].filter((f) => f.startsWith('cli/commands/') && !f.endsWith('-run.ts'));
    expect(commands.length).toBeGreaterThan(15);
    for (const start of commands) {
      const seen = reachedFrom(start);
      const packages = [...new Set([...seen].flatMap((f) => graph.get(f)?.packages ?? []))].filter((p) => !p.startsWith('node:'));
      expect([start, packages, [...seen].filter((f) => f.startsWith('library/') && f !== 'library/startup.ts')]).toEqual([start, packages.length ? ['commander'] : [], []]);
      // Its body is one module: the build makes a chunk boundary of every import(), and four in
      // check's action split its body into 12 more chunks (+6 ms of a start, BENCHMARKS.md).
      const bodies = new Set([...readFileSync(join(SRC, start), 'utf8').matchAll(/\bimport\('([^']+)'\)/g)].map((m) => m[1]));
      expect([start, bodies.size <= 1]).toEqual([start, true]);
    }
    // A body loaded by import() reaches the library through its entries too.
    const dynamic = [...graph.keys()].flatMap((file) =>
      ['cli', 'action'].includes(folder(file))
        ? [...readFileSync(join(SRC, file), 'utf8').matchAll(/\bimport\('(\.[^']+)'\)/g)]
            .map((m) => relative(SRC, resolve(dirname(join(SRC, file)), m[1]!.replace(/\.js$/, '.ts'))).split('\\').join('/'))
            .filter((t) => folder(t) === 'library' && !['library/index.ts', 'library/startup.ts', 'library/without-policies.ts'].includes(t))
            .map((t) => `${file} → ${t}`)
        : [],
    );
    expect(dynamic).toEqual([]);
  });

  it('one module imports the CEL engine and protobuf, and no module imports it: cel.ts loads it when a compile needs it', () => {
    const engine = /^@bufbuild\/(cel|cel-spec|protobuf)(\/|$)/;
    expect([...graph].filter(([, { packages }]) => packages.some((p) => engine.test(p))).map(([file]) => file)).toEqual(['policy/cel-engine.ts']);
    expect([...graph].filter(([, { local }]) => local.includes('policy/cel-engine.ts')).map(([file]) => file)).toEqual([]);
    expect(readFileSync(join(SRC, 'policy/cel.ts'), 'utf8')).toContain("await import('./cel-engine.js')");
  });

  it('has no folder-level import cycles, type imports included', () => {
    const edges = [...folderEdges().keys()].map((e) => e.split(' → '));
    const next = (f: string) => edges.filter(([a]) => a === f).map(([, b]) => b);
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (f: string, stack: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(f)), f].join(' → '));
        return;
      }
      state.set(f, 'visiting');
      for (const n of next(f)) visit(n, [...stack, f]);
      state.set(f, 'done');
    };
    for (const f of new Set(edges.flat())) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('the cycle check finds a cycle when there is one', () => {
    // The checks above would pass on an empty graph: prove they see edges.
    expect(folderEdges().get('cli → library')).toMatch(/^cli\/.* → library\/index\.ts$/);
    expect([...folderEdges().keys()]).toContain('library → engine');
  });
});

describe('one place for each operation', () => {
  it('each operation path of the table appears in exactly one file under src/ (the table)', async () => {
    const { OPERATIONS } = await import('../../src/api/operations.js');
    const files = sourceFiles(SRC).map((f) => [relative(SRC, f).split('\\').join('/'), readFileSync(f, 'utf8')] as const);
    const where: Record<string, string[]> = {};
    for (const [id, op] of Object.entries(OPERATIONS)) {
      // A parameter may be written `{name}`, `:name` or `${…}`: any of them matches.
      const pattern = new RegExp(op.path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join("(?:\\{\\w+\\}|:\\w+|\\$\\{[^}]+\\}|[^/'\"`\\s]+)") + "(?![\\w/])");
      where[id] = files.filter(([, text]) => pattern.test(text)).map(([f]) => f);
    }
    // The table was read (the check is vacuous on an empty one), whatever its size.
    expect(Object.keys(where)).toEqual(expect.arrayContaining(['listReportSchedules', 'getMisconfiguredReports']));
    for (const files of Object.values(where)) expect(files).toEqual(['api/operations.ts']);
  });
});
