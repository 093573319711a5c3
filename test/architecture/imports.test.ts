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
const area = (file: string) => file.split('/')[0];

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

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, stack: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file)?.local ?? []) visit(next, [...stack, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
