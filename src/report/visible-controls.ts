// Text from the API (names, titles, messages quoting resource fields) reaches a terminal or a CI
// log in the text and GitHub formats. An escape sequence in a dataset name could recolour, hide
// or rewrite lines there, or set a window title; a bidi override could reorder what is read. Those
// characters are shown as their `\uXXXX` escape instead, in every string of the report.
import type { Report } from '../core/model.js';
import { visibleControls } from '../core/printable.js';

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
