// The trend of the last runs as an inline SVG (no chart library, no CDN): per run a column of
// violations stacked by severity, its total as a point on top carrying its run and count for
// readers and tests, and each run's date under it.
import type { HistoryPoint } from '../core/model.js';
import { SEVERITY_ORDER } from '../core/order.js';
import { escapeHtml } from './html-escape.js';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 16, top: 16, bottom: 52 };

/** Where each run's column is centred and its total's point drawn (x by run order, y by violations, 0 at the bottom). */
export function trendPoints(trend: readonly HistoryPoint[]): { x: number; y: number; point: HistoryPoint }[] {
  const top = Math.max(1, ...trend.map((t) => t.violations));
  const span = WIDTH - PAD.left - PAD.right;
  const height = HEIGHT - PAD.top - PAD.bottom;
  const step = span / Math.max(1, trend.length);
  return trend.map((point, i) => ({
    x: Math.round((PAD.left + step * (i + 0.5)) * 10) / 10,
    y: Math.round((PAD.top + height - (point.violations / top) * height) * 10) / 10,
    point,
  }));
}

/** The severities' segments of one column, least severe at the bottom. */
function column(x: number, width: number, point: HistoryPoint, scale: number, base: number): string[] {
  let y = base;
  return [...SEVERITY_ORDER].reverse().flatMap((sev) => {
    const n = Number(point.bySeverity?.[sev] ?? 0);
    if (!(n > 0)) return [];
    const h = Math.round(n * scale * 10) / 10;
    y -= h;
    return [`<rect class="bar bar-${sev}" x="${Math.round((x - width / 2) * 10) / 10}" y="${Math.round(y * 10) / 10}" width="${width}" height="${h}"><title>run ${escapeHtml(String(point.run))}: ${n} ${sev}</title></rect>`];
  });
}

export function trendSvg(trend: readonly HistoryPoint[]): string {
  const points = trendPoints(trend);
  const top = Math.max(1, ...trend.map((t) => t.violations));
  const base = HEIGHT - PAD.bottom;
  const scale = (HEIGHT - PAD.top - PAD.bottom) / top;
  const barWidth = Math.max(4, Math.min(40, Math.round(((WIDTH - PAD.left - PAD.right) / Math.max(1, trend.length)) * 0.6)));
  const label = `Violations over the last ${trend.length} runs, by severity: ${trend.map((t) => `run ${t.run} (${t.startedAt.slice(0, 10)}) ${t.violations}`).join(', ')}`;
  // Every value escaped, those of a history file too (steward validates them on reading; a page must not depend on that).
  const bars = points.flatMap(({ x, point }) => column(x, barWidth, point, scale, base));
  const circles = points.map(
    ({ x, y, point }) =>
      `<circle class="point gate-${escapeHtml(String(point.gate))}" cx="${x}" cy="${y}" r="4" data-run="${escapeHtml(String(point.run))}" data-violations="${escapeHtml(String(point.violations))}">` +
      `<title>run ${escapeHtml(String(point.run))} (${escapeHtml(point.startedAt)}): ${escapeHtml(`${point.violations} violations, ${point.new} new, ${point.fixed} fixed`)}</title></circle>`,
  );
  // Labels thin out past 12 runs so they never overlap.
  const every = Math.ceil(trend.length / 12);
  const ticks = points.flatMap(({ x, point }, i) =>
    i % every === 0 || i === points.length - 1
      ? [`<text x="${x}" y="${base + 16}" text-anchor="middle">#${escapeHtml(String(point.run))}</text>`, `<text class="date" x="${x}" y="${base + 32}" text-anchor="middle">${escapeHtml(point.startedAt.slice(5, 10))}</text>`]
      : [],
  );
  const legend = SEVERITY_ORDER.map((sev, i) => `<rect class="bar bar-${sev}" x="${PAD.left + i * 92}" y="${HEIGHT - 12}" width="10" height="10"/><text x="${PAD.left + i * 92 + 14}" y="${HEIGHT - 3}">${sev}</text>`);
  return [
    `<svg class="trend" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">`,
    `<line class="axis" x1="${PAD.left}" y1="${base}" x2="${WIDTH - PAD.right}" y2="${base}"/>`,
    `<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${base}"/>`,
    `<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${top}</text>`,
    `<text x="${PAD.left - 6}" y="${base}" text-anchor="end">0</text>`,
    ...bars,
    points.length > 1 ? `<polyline class="line" points="${points.map((p) => `${p.x},${p.y}`).join(' ')}"/>` : '',
    ...circles,
    ...ticks,
    ...legend,
    '</svg>',
  ].join('');
}
