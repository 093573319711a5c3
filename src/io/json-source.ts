// JSON input files (snapshots, baselines) whose problems point at file:line:column. The text is
// parsed with JSON.parse (fast, exact JSON); only when something is wrong is it parsed again
// with the `yaml` package (YAML is a superset of JSON) to find where a value sits.
import { InputError } from '../core/problem.js';
import { parseYamlSource, problemAt, type YamlPath } from './yaml-source.js';

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

/** Where JSON.parse stopped: V8 does not always say (`Unexpected token ']', "…" is not valid JSON`). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const str = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const list = (close: string, item: () => void) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ',') fail();
      i++;
      ws();
    }
  };
  const member = () => {
    str();
    ws();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  const value = (): void => {
    ws();
    const c = text[i];
    const lit = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
    const num = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    num.lastIndex = i;
    if (c === '{') list('}', member);
    else if (c === '[') list(']', value);
    else if (c === '"') str();
    else if (lit) i += lit.length;
    else if (num.test(text)) i = num.lastIndex;
    else fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0;
  }
}

/** The JSON value of `text`, or an InputError at the syntax error (`baseline is not JSON: …`). */
export function parseJsonAt(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = (err as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (\.\.\.)?".*" (\.\.\. )?is not valid JSON$/s, '');
    throw new InputError([{ file, ...lineColumn(text, jsonErrorOffset(text)), message: `${what} is not JSON: ${reason}` }]);
  }
}

/** An InputError about the value at `path` of a JSON text (its deepest existing ancestor). */
export function jsonProblem(text: string, file: string, path: YamlPath, message: string): InputError {
  return new InputError([problemAt(parseYamlSource(text, file), path, message)]);
}
