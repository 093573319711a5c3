// A YAML file parsed with positions: syntax errors and node lookups as InputProblems with
// file:line:column, so every config error points where the user must look.
import { readFileSync } from 'node:fs';
import { type Document, isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { InputProblem } from '../policy/types.js';
import type { SourceLocation } from '../report/model.js';

export interface YamlSource {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
  problems: InputProblem[];
}

export function readYamlSource(absoluteFile: string, shownFile: string): YamlSource {
  const text = readFileSync(absoluteFile, 'utf8');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const problems = [...doc.errors, ...doc.warnings].map((e) => ({
    file: shownFile,
    line: e.linePos?.[0].line ?? 1,
    column: e.linePos?.[0].col ?? 1,
    message: e.message.split('\n')[0],
  }));
  return { file: shownFile, doc, lineCounter, problems };
}

export function locationOf(src: YamlSource, node: YamlNode | null | undefined): SourceLocation {
  const offset = node?.range?.[0] ?? 0;
  const { line, col } = src.lineCounter.linePos(offset);
  return { file: src.file, line, column: col };
}

/** The node at `path`; with `key`, the key node of the last segment instead of its value. */
export function nodeAt(src: YamlSource, path: (string | number)[], key = false): YamlNode | null {
  if (path.length === 0) return (src.doc.contents as YamlNode | null) ?? null;
  if (!key) return (src.doc.getIn(path, true) as YamlNode | undefined) ?? nodeAt(src, path.slice(0, -1));
  const parent = path.length === 1 ? src.doc.contents : src.doc.getIn(path.slice(0, -1), true);
  if (isMap(parent)) {
    const last = String(path[path.length - 1]);
    const pair = parent.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === last);
    if (pair?.key) return pair.key as YamlNode;
  }
  return nodeAt(src, path.slice(0, -1));
}

export function problemAt(src: YamlSource, path: (string | number)[], message: string, key = false): InputProblem {
  return { ...locationOf(src, nodeAt(src, path, key)), message };
}
