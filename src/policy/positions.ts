// Source positions in a parsed YAML document: the node an ajv instancePath names, and the
// file position of an offset inside a scalar's value (so a CEL error points at its column).
import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter, type Node, Scalar } from 'yaml';
import type { ExpressionOrigin } from './cel.js';

export interface Position {
  line: number;
  column: number;
}

export class SourceText {
  constructor(
    readonly file: string,
    readonly text: string,
    readonly lines: LineCounter,
  ) {}

  at(offset: number): Position {
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  of(node: Node | null | undefined): Position {
    return this.at(node?.range?.[0] ?? 0);
  }

  /** Maps offsets inside a string scalar's value to file positions (quotes and block headers skipped). */
  origin(node: Node): ExpressionOrigin {
    const start = this.of(node);
    const base = { file: this.file, ...start };
    if (!isScalar(node) || !node.range) return base;
    if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) {
      return { ...base, at: (offset) => this.at(node.range![0] + 1 + offset) };
    }
    if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
      return { ...base, at: this.blockMapper(node.range[0], node.range[1]) };
    }
    return { ...base, at: (offset) => this.at(node.range![0] + offset) };
  }

  /** Block scalars: value line i is source line i after the header, after the indentation. */
  private blockMapper(from: number, to: number): (offset: number) => Position {
    const source = this.text.slice(from, to);
    const firstBreak = source.indexOf('\n');
    const body = firstBreak < 0 ? [] : source.slice(firstBreak + 1).split('\n');
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
        if (rest <= s.length) return this.at(s.start + indent + rest);
        rest -= s.length + 1;
      }
      return this.at(from);
    };
  }
}

/** `/policies/0/fix` → ['policies', 0, 'fix'] (JSON Pointer unescaped). */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The node at a JSON Pointer, or the deepest existing ancestor. */
export function nodeAt(doc: Document, pointer: string): Node | null {
  let node: unknown = doc.contents;
  for (const seg of pointerSegments(pointer)) {
    const next: unknown = isMap(node) || isSeq(node) ? node.get(seg, true) : undefined;
    if (next === undefined || next === null) break;
    node = next;
  }
  return (node as Node | null) ?? null;
}

/** The key node of `key` in the map at `pointer` (to point at an unknown field's name). */
export function keyNodeAt(doc: Document, pointer: string, key: string): Node | null {
  const map = nodeAt(doc, pointer);
  if (!isMap(map)) return map;
  for (const pair of map.items) {
    if (isPair(pair) && isScalar(pair.key) && pair.key.value === key) return pair.key;
  }
  return map;
}
