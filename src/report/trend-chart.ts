// The trend of the last runs as an inline SVG line chart: violations per run, drawn here (no
// chart library, no CDN), each point a circle carrying its run and count for readers and tests.
import type { HistoryPoint } from '../core/model.js';
import { escapeHtml } from './html-escape.js';

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { left: 44, right: 16, top: 16, bottom: 36 };

/** Where each run's point is drawn (x by run order, y by violations, 0 at the bottom). */
export function trendPoints(trend: readonly HistoryPoint[]): { x: number; y: number; point: HistoryPoint }[] {
  const top = Math.max(1, ...trend.map((t) => t.violations));
  const span = WIDTH - PAD.left - PAD.right;
  const height = HEIGHT - PAD.top - PAD.bottom;
  const step = trend.length > 1 ? span / (trend.length - 1) : 0;
  return trend.map((point, i) => ({
    x: Math.round((PAD.left + (trend.length > 1 ? i * step : span / 2)) * 10) / 10,
    y: Math.round((PAD.top + height - (point.violations / top) * height) * 10) / 10,
    point,
  }));
}

export function trendSvg(trend: readonly HistoryPoint[]): string {
  const points = trendPoints(trend);
  const top = Math.max(1, ...trend.map((t) => t.violations));
  const base = HEIGHT - PAD.bottom;
  const label = `Violations over the last ${trend.length} runs: ${trend.map((t) => `run ${t.run} ${t.violations}`).join(', ')}`;
  const circles = points.map(
    ({ x, y, point }) =>
      // Every value escaped, those of a history file too (steward validates them on reading; a
      // page must not depend on that).
      `<circle class="point gate-${escapeHtml(String(point.gate))}" cx="${x}" cy="${y}" r="4" data-run="${escapeHtml(String(point.run))}" data-violations="${escapeHtml(String(point.violations))}">` +
      `<title>run ${escapeHtml(String(point.run))} (${escapeHtml(point.startedAt)}): ${escapeHtml(`${point.violations} violations, ${point.new} new, ${point.fixed} fixed`)}</title></circle>`,
  );
  const ticks = points.map(({ x, point }) => `<text x="${x}" y="${base + 18}" text-anchor="middle">#${escapeHtml(String(point.run))}</text>`);
  return [
    `<svg class="trend" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">`,
    `<line class="axis" x1="${PAD.left}" y1="${base}" x2="${WIDTH - PAD.right}" y2="${base}"/>`,
    `<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${base}"/>`,
    `<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${top}</text>`,
    `<text x="${PAD.left - 6}" y="${base}" text-anchor="end">0</text>`,
    points.length > 1 ? `<polyline class="line" points="${points.map((p) => `${p.x},${p.y}`).join(' ')}"/>` : '',
    ...circles,
    ...ticks,
    '</svg>',
  ].join('');
}
