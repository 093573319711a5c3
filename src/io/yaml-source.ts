// A YAML input file (config, policy, manifest, waivers) parsed with source positions, so every
// problem about it can point at file:line:column: syntax errors, the node at a path, the key
// of a map entry, and offsets inside a scalar's value (a CEL error's column).
// What a run asks of a file (its data, where a path is) can be answered from a store that kept
// the answers a run before gave for the very same text (io/yaml-answers.ts): the document is
// then parsed only for a question no run asked before.
import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, Scalar, visit } from 'yaml';
import type { InputProblem } from '../core/problem.js';
import type { SourceLocation } from '../core/model.js';
import { yamlAnswerStore } from './yaml-answers.js';

/** A path into the document: map keys and sequence indexes (`['permissions', 1, 'type']`). */
export type YamlPath = readonly (string | number)[];

export interface YamlSource {
  /** Display path (relative, `/` separated). */
  file: string;
  text: string;
  /** The document; a source whose answers were recalled parses it at its first use. */
  readonly doc: Document;
  readonly lineCounter: LineCounter;
  /** Syntax errors and warnings (an unresolved tag), each at its position; empty when it parsed. */
  problems: InputProblem[];
}

/** What a source knows: its answers so far (query → JSON text), and whether they can be kept. */
interface Answers {
  byQuery: Map<string, string>;
  /** False for a source with syntax problems, or an answer JSON cannot carry exactly (`.nan`). */
  keepable: boolean;
}
const answersOf = new WeakMap<YamlSource, Answers>();

/**
 * Parses `text` (shown as `file`). `syntaxLabel` starts every syntax problem's message: policy
 * authors have always read "YAML syntax error", manifests and waivers "invalid YAML".
 */
export function parseYamlSource(text: string, file: string, syntaxLabel = 'invalid YAML'): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const source: YamlSource = { file, text, doc, lineCounter, problems: [] };
  source.problems = [...doc.errors, ...doc.warnings].map((e) => {
    // `resource: q-*` is fine but `resource: *` is a YAML alias: say how to write a glob.
    const hint = /alias/i.test(e.message) ? ' (quote a value that starts with *, e.g. "*-prod")' : '';
    return { ...positionAt(source, e.pos[0]), message: `${syntaxLabel}: ${e.message.split('\n')[0]}${hint}` };
  });
  return source;
}

/**
 * parseYamlSource, with the store's answers when a run before read this very text as `file`:
 * then no parse until a question no run asked (a config, manifests and waivers are the same
 * files run after run; parsing them was ~8 ms of a 110 ms `check`).
 */
export function recallYamlSource(text: string, file: string, syntaxLabel?: string): YamlSource {
  const store = yamlAnswerStore();
  if (!store) return parseYamlSource(text, file, syntaxLabel);
  const kept = store.recall(file, text);
  let source: YamlSource;
  let answers: Answers;
  if (kept) {
    let parsed: YamlSource | undefined;
    const parse = () => (parsed ??= parseYamlSource(text, file, syntaxLabel));
    source = {
      file,
      text,
      get doc() {
        return parse().doc;
      },
      get lineCounter() {
        return parse().lineCounter;
      },
      // Kept only for a text that had none.
      problems: [],
    };
    answers = { byQuery: new Map(kept), keepable: true };
  } else {
    source = parseYamlSource(text, file, syntaxLabel);
    answers = { byQuery: new Map(), keepable: source.problems.length === 0 };
  }
  answersOf.set(source, answers);
  store.track(file, text, () => (answers.keepable ? answers.byQuery : null));
  return source;
}

/**
 * JSON that reads back as the very value: no value, a number JSON cannot carry, or an object
 * other than a plain one or an array (a Date would come back a string) refuses it.
 */
function exactly(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  const plain = original === null || typeof original !== 'object' || Array.isArray(original) || Object.getPrototypeOf(original) === Object.prototype;
  if (!plain || value === undefined || (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))) throw new RangeError();
  return value;
}

/**
 * `compute`'s answer about `source` (a function of its text and display path alone), or the one
 * kept for `query` by a run before (a source not read by recallYamlSource keeps none). The
 * caller may change what it gets: a recalled answer is read afresh each time, and a computed one
 * is written down before it is returned.
 */
export function remembered<T>(source: YamlSource, query: string, compute: () => T): T {
  const answers = answersOf.get(source);
  const kept = answers?.byQuery.get(query);
  if (kept !== undefined) {
    try {
      return JSON.parse(kept) as T;
    } catch {
      // A damaged store costs a parse, never a run.
    }
  }
  const answer = compute();
  if (answers?.keepable) {
    try {
      answers.byQuery.set(query, JSON.stringify(answer, exactly));
    } catch {
      // BigInt, `.inf`, `.nan`, -0: answered, never kept.
      answers.keepable = false;
    }
  }
  return answer;
}

/**
 * How far aliases may expand (yaml's count of alias uses times the nodes each one copies).
 * Ordinary reuse (a few hundred `*defaults`) stays far below; a "billion laughs" document
 * passes it within its first levels and is refused at its first alias, not expanded.
 */
export const MAX_ALIAS_EXPANSION = 10_000;

/** A key that would set an object's prototype when the document becomes data. */
const PROTOTYPE_KEY = '__proto__';

/**
 * The document's data for a loader, or the problems that stop it, each at its position: syntax
 * errors, a `__proto__` key anywhere, and aliases expanding past MAX_ALIAS_EXPANSION.
 */
export function yamlData(source: YamlSource): { data: unknown; problems: InputProblem[] } {
  if (source.problems.length > 0) return { data: undefined, problems: source.problems };
  // Stryker disable next-line StringLiteral: a query's name only has to differ from the others'
  return remembered(source, 'data', () => documentData(source));
}

function documentData(source: YamlSource): { data: unknown; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  let firstAlias: Node | null = null;
  visit(source.doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === PROTOTYPE_KEY) {
        problems.push({ ...locationOf(source, pair.key), message: `the key ${PROTOTYPE_KEY} is not allowed` });
      }
    },
    Alias(_, alias) {
      firstAlias ??= alias;
    },
  });
  if (problems.length > 0) return { data: undefined, problems };
  try {
    return { data: source.doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSION }), problems };
  } catch (error) {
    if (!(error instanceof ReferenceError) || !isAlias(firstAlias)) throw error;
    const message = `aliases expand past ${MAX_ALIAS_EXPANSION} nodes: write the values out or reuse less`;
    return { data: undefined, problems: [{ ...locationOf(source, firstAlias), message }] };
  }
}

export function positionAt(source: YamlSource, offset: number): SourceLocation {
  const { line, col } = source.lineCounter.linePos(offset);
  return { file: source.file, line, column: col };
}

/** Where a node starts; the document start for no node. */
export function locationOf(source: YamlSource, node: Node | null | undefined): SourceLocation {
  return positionAt(source, node?.range?.[0] ?? 0);
}

/** The node at `path`, or its deepest existing ancestor (so a problem always has a place). */
export function nodeAt(source: YamlSource, path: YamlPath): Node | null {
  return descend(source, path).node;
}

/** The key node of the last segment of `path` (an unknown key's name), else nodeAt's answer. */
export function keyNodeAt(source: YamlSource, path: YamlPath): Node | null {
  const parentPath = path.slice(0, -1);
  const { node: parent, depth } = descend(source, parentPath);
  if (path.length > 0 && depth === parentPath.length && isMap(parent)) {
    const name = String(path[path.length - 1]);
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === name);
    if (pair) return pair.key as Node;
  }
  return parent;
}

/** Where the node at `path` (nodeAt's) starts. */
export function locationAt(source: YamlSource, path: YamlPath): SourceLocation {
  return remembered(source, `node ${JSON.stringify(path)}`, () => locationOf(source, nodeAt(source, path)));
}

/** Where the key at `path` (keyNodeAt's) starts. */
export function keyLocationAt(source: YamlSource, path: YamlPath): SourceLocation {
  return remembered(source, `key ${JSON.stringify(path)}`, () => locationOf(source, keyNodeAt(source, path)));
}

export function problemAt(source: YamlSource, path: YamlPath, message: string): InputProblem {
  return { ...locationAt(source, path), message };
}

/** Walks `path` as far as it exists; `depth` is how many segments were found. */
function descend(source: YamlSource, path: YamlPath): { node: Node | null; depth: number } {
  let node = (source.doc.contents as Node | null) ?? null;
  let depth = 0;
  for (const seg of path) {
    const next = childOf(node, seg);
    if (!next) break;
    node = next;
    depth++;
  }
  return { node, depth };
}

function childOf(node: Node | null, seg: string | number): Node | undefined {
  if (isSeq(node)) return (node.items[Number(seg)] as Node | null) ?? undefined;
  if (isMap(node)) {
    // Keys compare as text: `42:` and `"42":` are both the segment 42 of a JSON pointer.
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
    // `? key` without a value: point at the key.
    return ((pair?.value ?? pair?.key) as Node | null) ?? undefined;
  }
  return undefined;
}

/** A JSON Pointer (an ajv instancePath) as a path: `/policies/0/fix` → ['policies', 0, 'fix']. */
export function pointerPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** A path as users read it: `permissions[1].type`; '' for the root. */
export function pathLabel(path: YamlPath): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

/** Every path under the root → its position (entries at the item, keys at their value). */
export function collectPaths(source: YamlSource): Record<string, SourceLocation> {
  // Stryker disable next-line StringLiteral: a query's name only has to differ from the others'
  return remembered(source, 'paths', () => pathLocations(source));
}

function pathLocations(source: YamlSource): Record<string, SourceLocation> {
  const paths: Record<string, SourceLocation> = {};
  const walk = (node: unknown, path: (string | number)[]) => {
    if (path.length > 0) paths[pathLabel(path)] = locationOf(source, node as Node | null);
    if (isMap(node)) {
      for (const p of node.items) if (isScalar(p.key)) walk(p.value, [...path, String(p.key.value)]);
    } else if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) walk(item, [...path, i]);
    }
  };
  walk(source.doc.contents, []);
  return paths;
}

/**
 * For a scalar: maps an offset inside its value to the file position (quotes and block
 * headers and indentation skipped). Undefined for anything else.
 */
export function valuePositions(source: YamlSource, node: Node | null): ((offset: number) => SourceLocation) | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const start = node.range[0];
  if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) {
    return (offset) => positionAt(source, start + 1 + offset);
  }
  if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
    return blockPositions(source, start, node.range[1]);
  }
  return (offset) => positionAt(source, start + offset);
}

/** Block scalars: value line i is source line i after the header, after the indentation. */
function blockPositions(source: YamlSource, from: number, to: number): (offset: number) => SourceLocation {
  const block = source.text.slice(from, to);
  const firstBreak = block.indexOf('\n');
  const body = firstBreak < 0 ? [] : block.slice(firstBreak + 1).split('\n');
  const indent = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  let lineStart = from + firstBreak + 1;
  const starts = body.map((l) => {
    const s = lineStart;
    lineStart += l.length + 1;
    return { start: s, length: Math.max(0, l.length - indent) };
  });
  return (offset) => {
    let rest = offset;
    for (const s of starts) {
      if (rest <= s.length) return positionAt(source, s.start + indent + rest);
      rest -= s.length + 1;
    }
    return positionAt(source, from);
  };
}
