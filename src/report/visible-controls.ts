// Text from the API (names, titles, messages quoting resource fields) reaches a terminal or a CI
// log in the text and GitHub formats. An escape sequence in a dataset name could recolour, hide
// or rewrite lines there, or set a window title; a bidi override could reorder what is read. Those
// characters are shown as their `\uXXXX` escape instead, in every string of the report.
import type { Report } from '../core/model.js';

/** C0 controls but newline and tab, DEL, C1 controls (CSI among them), and bidi overrides. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function visibleControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A copy of `value` with every string passed through visibleControls (keys are steward's own). */
function mapStrings<T>(value: T): T {
  if (typeof value === 'string') return visibleControls(value) as T;
  if (Array.isArray(value)) return value.map(mapStrings) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v)])) as T;
  }
  return value;
}

export function reportWithVisibleControls(report: Report): Report {
  return mapStrings(report);
}
