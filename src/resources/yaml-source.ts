// YAML read with source positions, shared by manifests and waivers: every node can be turned
// into file:line:column, and ajv errors point at the node they are about.
import type { ErrorObject } from 'ajv';
import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { InputProblem } from '../policy/types.js';
import type { SourceLocation } from '../report/model.js';

export interface YamlSource {
  /** Display path (relative, `/` separated). */
  file: string;
  doc: Document;
  /** Position of a character offset. */
  at(offset: number): SourceLocation;
  /** Position of a node (its first character), or of the document start. */
  nodeLocation(node: Node | null | undefined): SourceLocation;
}

export function parseYaml(text: string, file: string): { source: YamlSource; problems: InputProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const source: YamlSource = {
    file,
    doc,
    at,
    nodeLocation: (node) => (node?.range ? at(node.range[0]) : at(0)),
  };
  const problems = doc.errors.map((e) => {
    // `resource: q-*` is fine but `resource: *` is a YAML alias: say how to write a glob.
    const hint = /alias/i.test(e.message) ? ' (quote a value that starts with *, e.g. "*-prod")' : '';
    return { ...at(e.pos[0]), message: `invalid YAML: ${firstLine(e.message)}${hint}` };
  });
  return { source, problems };
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

/** The node at a JSON path (`['permissions', 1, 'type']`), or the deepest existing ancestor. */
export function nodeAtPath(doc: Document, segments: (string | number)[]): Node | null {
  let node: unknown = doc.contents;
  for (const seg of segments) {
    const next = childOf(node, seg);
    if (next === undefined) break;
    node = next;
  }
  return (node as Node | null) ?? null;
}

function childOf(node: unknown, seg: string | number): Node | undefined {
  if (isSeq(node)) return node.items[Number(seg)] as Node | undefined;
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
    return (pair?.value as Node | undefined) ?? (pair?.key as Node | undefined);
  }
  return undefined;
}

/** The key node of `name` in the map at `segments` (for "unknown key" errors). */
function keyNode(doc: Document, segments: (string | number)[], name: string): Node | null {
  const map = nodeAtPath(doc, segments);
  if (!isMap(map)) return map;
  const pair = map.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === name);
  return (pair?.key as Node | undefined) ?? map;
}

function segmentsOf(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `permissions[1].type` for display. */
export function displayPath(segments: (string | number)[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

/** ajv errors → problems at the offending node, one per node (the most useful message first). */
export function schemaProblems(source: YamlSource, errors: ErrorObject[] | null | undefined): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const segs = segmentsOf(e.instancePath);
    let node: Node | null;
    let message: string;
    const where = displayPath(segs);
    if (e.keyword === 'additionalProperties') {
      const name = String((e.params as { additionalProperty: string }).additionalProperty);
      node = keyNode(source.doc, segs, name);
      message = `unknown key "${name}"${where ? ` in ${where}` : ''}`;
    } else if (e.keyword === 'required') {
      node = nodeAtPath(source.doc, segs);
      message = `missing required key "${(e.params as { missingProperty: string }).missingProperty}"${where ? ` in ${where}` : ''}`;
    } else if (e.keyword === 'enum') {
      node = nodeAtPath(source.doc, segs);
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ');
      message = `${where || 'value'} must be one of ${allowed} (got ${JSON.stringify(e.data)})`;
    } else if (e.keyword === 'const') {
      node = nodeAtPath(source.doc, segs);
      message = `${where || 'value'} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    } else {
      node = nodeAtPath(source.doc, segs);
      message = `${where || 'document'} ${e.message ?? 'is invalid'}`;
    }
    const loc = source.nodeLocation(node);
    const key = `${loc.line}:${loc.column}`;
    // anyOf/oneOf produce several errors for one node: keep the first, most specific one.
    if (seen.has(key) || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    seen.add(key);
    problems.push({ ...loc, message });
  }
  return problems;
}

/** Every path under the root map → position (entries at the item, keys at their value). */
export function collectPaths(source: YamlSource): Record<string, SourceLocation> {
  const paths: Record<string, SourceLocation> = {};
  const walk = (node: unknown, segs: (string | number)[]) => {
    if (segs.length > 0) paths[displayPath(segs)] = source.nodeLocation(node as Node);
    if (isMap(node)) {
      for (const p of node.items) if (isScalar(p.key)) walk(p.value, [...segs, String(p.key.value)]);
    } else if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) walk(item, [...segs, i]);
    }
  };
  walk(source.doc.contents, []);
  return paths;
}
