// Rewrites a permission manifest in place (DESIGN §10 `--write`): the new text is the old text
// with edits at the node ranges the `yaml` parser reports, so comments, key order, flow style,
// quoting and spacing of everything the fix did not touch stay byte-identical.
// `Document.toString()` would re-render the whole file and is deliberately not used.
//
// Fixes only narrow access, so the desired state is always reachable by: removing items from
// sequences (a revoked permission, a removed entry) and replacing scalars (`publicAccess`).
// Anything else (an added item, a removed key) is refused with ManifestRewriteError.
import { isMap, isPair, isScalar, isSeq, type Node, type Pair, parseDocument, Scalar, stringify, type YAMLMap, type YAMLSeq } from 'yaml';

export class ManifestRewriteError extends Error {
  readonly code = 'E_REWRITE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ManifestRewriteError';
  }
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The manifest text with the top-level keys of `desired` set to their values (keys the manifest
 * does not have are ignored, e.g. the resource document's `id`). Returns `text` itself when
 * nothing changes, so a second rewrite with the same state is a no-op.
 */
export function rewriteManifest(text: string, desired: Record<string, unknown>): string {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.errors.length > 0) throw new ManifestRewriteError(`not valid YAML: ${doc.errors[0].message}`);
  if (!isMap(doc.contents)) throw new ManifestRewriteError('the manifest is not a mapping');
  const edits: Edit[] = [];
  const ctx = { text, edits };
  for (const pair of (doc.contents as YAMLMap).items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : null;
    if (key === null || !(key in desired)) continue;
    editValue(ctx, pair, pair.value as Node | null, desired[key], key);
  }
  return applyEdits(text, edits);
}

interface Ctx {
  text: string;
  edits: Edit[];
}

function editValue(ctx: Ctx, pair: Pair | null, node: Node | null, value: unknown, where: string): void {
  if (node === null || node === undefined) throw new ManifestRewriteError(`${where}: no value in the manifest`);
  if (isSeq(node)) {
    if (!Array.isArray(value)) throw new ManifestRewriteError(`${where}: expected a list`);
    editSeq(ctx, pair, node as YAMLSeq, value, where);
  } else if (isMap(node)) {
    if (!isObject(value)) throw new ManifestRewriteError(`${where}: expected a mapping`);
    for (const p of (node as YAMLMap).items) {
      const key = isScalar(p.key) ? String(p.key.value) : null;
      if (key === null) throw new ManifestRewriteError(`${where}: complex keys are not supported`);
      if (!(key in value)) throw new ManifestRewriteError(`${where}.${key}: removing a key is not supported`);
      editValue(ctx, p, p.value as Node | null, value[key], `${where}.${key}`);
    }
    for (const key of Object.keys(value)) {
      if (!(node as YAMLMap).has(key)) throw new ManifestRewriteError(`${where}.${key}: adding a key is not supported`);
    }
  } else if (isScalar(node)) {
    if (sameScalar(node.value, value)) return;
    if (value !== null && typeof value === 'object') throw new ManifestRewriteError(`${where}: expected a scalar`);
    ctx.edits.push(scalarEdit(ctx.text, node.range!, renderScalar(node as Scalar, value)));
  } else {
    throw new ManifestRewriteError(`${where}: aliases and tags are not supported`);
  }
}

/**
 * Replaces a scalar's text. When spaces and a `#` comment follow on the same line, the run of
 * spaces grows or shrinks by the length change (one space at least), so the comment stays in
 * its column: `publicAccess: true   # c` → `publicAccess: false  # c`.
 */
function scalarEdit(text: string, range: readonly number[], replacement: string): Edit {
  const [start, end] = range;
  const gap = / +(?=#)/y;
  gap.lastIndex = end;
  const run = gap.exec(text)?.[0].length ?? 0;
  if (run === 0) return { start, end, text: replacement };
  const spaces = Math.max(1, run - (replacement.length - (end - start)));
  return { start, end: end + run, text: replacement + ' '.repeat(spaces) };
}

/** Matches the desired items to the manifest's in order; unmatched manifest items are removed. */
function editSeq(ctx: Ctx, pair: Pair | null, seq: YAMLSeq, values: unknown[], where: string): void {
  const nodes = seq.items as Node[];
  const matchOf = new Array<number>(nodes.length).fill(-1);
  let next = 0;
  values.forEach((value, j) => {
    while (next < nodes.length && !canNarrowTo(toJs(nodes[next]), value)) next++;
    if (next >= nodes.length) throw new ManifestRewriteError(`${where}[${j}]: not in the manifest (a fix never adds)`);
    matchOf[next] = j;
    next++;
  });
  nodes.forEach((node, i) => {
    if (matchOf[i] >= 0) editValue(ctx, null, node, values[matchOf[i]], `${where}[${i}]`);
  });
  const removed = nodes.map((_, i) => matchOf[i] < 0);
  if (!removed.includes(true)) return;
  if (seq.flow) removeFromFlowSeq(ctx, seq, removed);
  else removeFromBlockSeq(ctx, pair, seq, removed, where);
}

function removeFromBlockSeq(ctx: Ctx, pair: Pair | null, seq: YAMLSeq, removed: boolean[], where: string): void {
  const nodes = seq.items as Node[];
  nodes.forEach((node, i) => {
    if (!removed[i]) return;
    const dash = dashBefore(ctx.text, node.range![0]);
    if (dash < 0) throw new ManifestRewriteError(`${where}[${i}]: unexpected layout of a block sequence item`);
    ctx.edits.push({ start: lineStart(ctx.text, dash), end: afterLine(ctx.text, contentEnd(node)), text: '' });
  });
  if (removed.every(Boolean)) {
    // A block sequence cannot be empty: the key gets a flow `[]` after its colon.
    const key = pair?.key as Node | undefined;
    const colon = key?.range ? ctx.text.indexOf(':', key.range[1]) : -1;
    if (colon < 0) throw new ManifestRewriteError(`${where}: cannot write an empty list here`);
    ctx.edits.push({ start: colon + 1, end: colon + 1, text: ' []' });
  }
}

function removeFromFlowSeq(ctx: Ctx, seq: YAMLSeq, removed: boolean[]): void {
  const nodes = seq.items as Node[];
  const { text } = ctx;
  if (removed.every(Boolean)) {
    ctx.edits.push({ start: seq.range![0], end: seq.range![1], text: '[]' });
    return;
  }
  // Runs of consecutive removed items: each item alone on its line(s) goes with its lines
  // (comma and comment included); items sharing a line go with the separator next to them.
  for (let i = 0; i < nodes.length; ) {
    if (!removed[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < nodes.length && removed[j + 1]) j++;
    const first = nodes[i].range!;
    const last = nodes[j].range!;
    const ownLines = nodes.slice(i, j + 1).every((n) => aloneOnLine(text, n.range![0], n.range![1]));
    if (ownLines) {
      ctx.edits.push({ start: lineStart(text, first[0]), end: afterLine(text, last[1]), text: '' });
    } else if (j + 1 < nodes.length) {
      ctx.edits.push({ start: first[0], end: nodes[j + 1].range![0], text: '' });
    } else {
      ctx.edits.push({ start: nodes[i - 1].range![1], end: last[1], text: '' });
    }
    i = j + 1;
  }
}

/** Whether desired `value` is `js` or a narrowing of it (same scalars, lists with items left out). */
function canNarrowTo(js: unknown, value: unknown): boolean {
  if (Array.isArray(js)) {
    if (!Array.isArray(value)) return false;
    let k = 0;
    for (const v of value) {
      while (k < js.length && !canNarrowTo(js[k], v)) k++;
      if (k >= js.length) return false;
      k++;
    }
    return true;
  }
  if (isObject(js)) {
    if (!isObject(value)) return false;
    const keys = Object.keys(js);
    if (keys.length !== Object.keys(value).length) return false;
    return keys.every((key) => key in value && canNarrowTo(js[key], value[key]));
  }
  return sameScalar(js, value);
}

/** Loose on purpose: a manifest's `id: 7` and a document's `"7"` are the same id. */
function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const simple = (x: unknown) => typeof x === 'string' || typeof x === 'number';
  return simple(a) && simple(b) && String(a) === String(b);
}

function renderScalar(node: Scalar, value: unknown): string {
  if (typeof value === 'string' && node.type === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
  if (typeof value === 'string' && node.type === Scalar.QUOTE_SINGLE) return `'${value.replaceAll("'", "''")}'`;
  return stringify(value).trimEnd();
}

function toJs(node: Node): unknown {
  return node.toJSON();
}

/** End of the last value character of a node (a block collection's range ends after trailing comments). */
function contentEnd(node: Node): number {
  if (isSeq(node) && !node.flow && node.items.length > 0) return contentEnd(node.items.at(-1) as Node);
  if (isMap(node) && !node.flow && node.items.length > 0) {
    const last = node.items.at(-1)!;
    if (!isPair(last)) return node.range![1];
    return contentEnd((last.value ?? last.key) as Node);
  }
  return node.range![1];
}

/** Position of the `-` indicator of the block sequence item starting at `pos`, or -1. */
function dashBefore(text: string, pos: number): number {
  let p = pos - 1;
  while (p >= 0 && /[ \t\r\n]/.test(text[p])) p--;
  if (p < 0 || text[p] !== '-') return -1;
  return /^[ \t]*$/.test(text.slice(lineStart(text, p), p)) ? p : -1;
}

function aloneOnLine(text: string, start: number, end: number): boolean {
  const before = text.slice(lineStart(text, start), start);
  const eol = text.indexOf('\n', end);
  const after = text.slice(end, eol < 0 ? text.length : eol);
  return /^[ \t]*$/.test(before) && /^[ \t]*,?[ \t]*(#.*)?\r?$/.test(after);
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** Position just after the newline ending the line that holds `pos - 1` (or the text's end). */
function afterLine(text: string, pos: number): number {
  const eol = text.indexOf('\n', Math.max(pos - 1, 0));
  return eol < 0 ? text.length : eol + 1;
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > limit) throw new ManifestRewriteError('overlapping edits (unsupported manifest layout)');
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
