// The HTML report's inline style and script. The page reads fully without the script; the
// script sorts a table by a clicked header, filters findings (severity at least, status,
// lifecycle, owner, policy, text) hiding the groups left empty, keeps the filters in the URL
// hash so a filtered view can be shared, and opens every collapsed part before printing.
// The Content-Security-Policy allows nothing to be fetched (the file works offline, attached
// to an e-mail or an audit ticket) and no script but this one, by its hash: text that slipped
// past escaping still could not run.
import { sha256 } from '../core/digest.js';


export const HTML_STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #4a525c; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa;
  --critical: #8c0f0f; --high: #c2410c; --medium: #a16207; --low: #0b5394; --info: #6b7280; --pass: #1a7f37; --fail: #b42318; --error: #7a4d00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 1280px; margin: 0 auto; padding: 16px 24px; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; }
h3 { font-size: 1rem; margin: 20px 0 6px; }
.meta { color: var(--muted); margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 4px; font-weight: 600; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); } .verdict.error { background: var(--error); }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin: 16px 0 12px; }
.tile { border: 1px solid var(--line); border-top: 4px solid var(--line); border-radius: 6px; padding: 10px 12px; background: var(--soft); }
.tile-label { font-size: 0.85rem; color: var(--muted); } .tile-value { font-size: 1.6rem; font-weight: 700; line-height: 1.2; } .tile-detail { font-size: 0.85rem; color: var(--muted); }
.tile.good { border-top-color: var(--pass); } .tile.bad { border-top-color: var(--fail); } .tile.warn { border-top-color: var(--error); }
.tile.gate-pass { border-top-color: var(--pass); } .tile.gate-fail { border-top-color: var(--fail); } .tile.gate-error { border-top-color: var(--error); }
.tile.gate-pass .tile-value { color: var(--pass); } .tile.gate-fail .tile-value { color: var(--fail); } .tile.gate-error .tile-value { color: var(--error); }
.severity-bar { display: flex; height: 28px; border-radius: 4px; overflow: hidden; margin: 8px 0; font-size: 0.8rem; color: #fff; }
.bar-part { display: flex; align-items: center; justify-content: center; white-space: nowrap; overflow: hidden; min-width: 0; padding: 0 4px; }
.bar-critical { background: var(--critical); fill: var(--critical); } .bar-high { background: var(--high); fill: var(--high); } .bar-medium { background: var(--medium); fill: var(--medium); }
.bar-low { background: var(--low); fill: var(--low); } .bar-info { background: var(--info); fill: var(--info); }
.grid { list-style: none; padding: 0; margin: 8px 0; display: grid; gap: 8px; }
.policy-grid { grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); }
.control-grid { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); }
.policy-tile, .control-tile { border: 1px solid var(--line); border-left: 6px solid var(--line); border-radius: 4px; padding: 6px 10px; }
.status-pass { border-left-color: var(--pass); } .status-fail { border-left-color: var(--fail); } .status-error { border-left-color: var(--error); } .status-skipped, .status-not-evaluated { border-left-color: var(--info); }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 700; text-transform: uppercase; padding: 0 6px; border-radius: 3px; color: #fff; background: var(--info); }
.badge.status-pass { background: var(--pass); } .badge.status-fail { background: var(--fail); } .badge.status-error { background: var(--error); }
.policy-title { font-weight: 600; } .policy-tile details { font-size: 0.9rem; } .policy-tile summary { cursor: pointer; color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
table.compact { width: auto; min-width: 240px; }
/* A group's findings are laid out only when scrolled near: 10,000 rows open fast. */
.policy-findings { content-visibility: auto; contain-intrinsic-size: auto 600px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--soft); }
td.num, th.num { text-align: right; }
th button { font: inherit; font-weight: 600; border: 0; background: none; padding: 0; cursor: pointer; color: inherit; }
.sev { font-weight: 600; }
.sev-critical { color: var(--critical); } .sev-high { color: var(--high); } .sev-medium { color: var(--medium); } .sev-low { color: var(--low); } .sev-info { color: var(--muted); }
.expiring { background: #fff4d6; }
.lifecycle-new, .lifecycle-reopened { font-weight: 600; }
.filters { display: flex; gap: 12px; align-items: end; flex-wrap: wrap; margin: 8px 0; position: sticky; top: 0; background: var(--bg); padding: 8px 0; z-index: 1; }
.filters label { display: flex; flex-direction: column; font-size: 0.9rem; color: var(--muted); }
.trend { width: 100%; max-width: 720px; height: auto; }
.trend .axis { stroke: var(--muted); }
.trend .line { fill: none; stroke: var(--fg); stroke-width: 1; stroke-dasharray: 3 3; }
.trend .point { fill: var(--fg); } .trend .point.gate-pass { fill: var(--pass); } .trend .point.gate-error { fill: var(--error); }
.trend text { font-size: 12px; fill: var(--muted); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; }
.hidden { display: none; }
@media (max-width: 640px) {
  header, main, footer { padding: 12px; }
  .tiles { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
  .tile-value { font-size: 1.3rem; }
  .policy-grid, .control-grid { grid-template-columns: 1fr; }
  .filters { position: static; }
  .filters label, .filters select, .filters input { width: 100%; }
  /* Wide tables scroll sideways inside the page instead of widening it. */
  table { display: block; overflow-x: auto; }
}
@media print {
  .filters, #no-match { display: none !important; }
  .policy-findings { content-visibility: visible; }
  .tile, th { background: none; }
  .policy-tile, .control-tile, tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;

export const HTML_SCRIPT = `
(function () {
  function cellValue(row, i) {
    var cell = row.cells[i];
    return cell ? (cell.getAttribute('data-sort') || cell.textContent || '') : '';
  }
  document.querySelectorAll('table.sortable th button').forEach(function (button) {
    button.addEventListener('click', function () {
      var th = button.closest('th');
      var table = th.closest('table');
      var index = Array.prototype.indexOf.call(th.parentNode.children, th);
      var ascending = th.getAttribute('aria-sort') !== 'ascending';
      table.querySelectorAll('th').forEach(function (other) { other.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = cellValue(a, index), y = cellValue(b, index);
        var n = Number(x) - Number(y);
        var order = x !== '' && y !== '' && !isNaN(n) ? n : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  var RANK = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };
  var KEYS = ['text', 'severity', 'status', 'lifecycle', 'owner', 'policy'];
  var FILTER_HASH = /^#(text|severity|status|lifecycle|owner|policy)=/;
  var controls = {};
  KEYS.forEach(function (k) { controls[k] = document.getElementById('filter-' + k); });
  var count = document.getElementById('filter-count');
  var noMatch = document.getElementById('no-match');
  function state() {
    var s = {};
    KEYS.forEach(function (k) { if (controls[k] && controls[k].value) s[k] = controls[k].value; });
    return s;
  }
  function applyFilter() {
    var s = state();
    var needle = (s.text || '').toLowerCase();
    var least = s.severity ? RANK[s.severity] : 0;
    var shown = 0, total = 0;
    document.querySelectorAll('.finding-group').forEach(function (group) {
      var visible = 0;
      group.querySelectorAll('tr.finding').forEach(function (row) {
        var show = (!needle || row.textContent.toLowerCase().indexOf(needle) >= 0) &&
          Number(row.getAttribute('data-rank')) >= least &&
          (!s.status || row.getAttribute('data-status') === s.status) &&
          (!s.lifecycle || row.getAttribute('data-lifecycle') === s.lifecycle) &&
          (!s.owner || row.getAttribute('data-owner') === s.owner) &&
          (!s.policy || row.getAttribute('data-policy') === s.policy);
        row.classList.toggle('hidden', !show);
        total += 1;
        if (show) visible += 1;
      });
      group.classList.toggle('hidden', visible === 0);
      shown += visible;
    });
    if (noMatch) noMatch.classList.toggle('hidden', shown > 0 || total === 0);
    if (count) count.textContent = shown + ' of ' + total + ' findings shown';
    // The filters own the hash only when set, or when it held filters: a policy anchor stays.
    var hash = new URLSearchParams(s).toString();
    if (hash !== location.hash.slice(1) && (hash || FILTER_HASH.test(location.hash))) history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
  }
  function fromHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    KEYS.forEach(function (k) {
      var c = controls[k];
      if (!c) return;
      var v = params.get(k) || '';
      if (c.tagName === 'SELECT' && v && !Array.prototype.some.call(c.options, function (o) { return o.value === v; })) v = '';
      c.value = v;
    });
  }
  if (controls.text && controls.severity) {
    document.getElementById('filters').classList.remove('hidden');
    fromHash();
    KEYS.forEach(function (k) { if (controls[k]) controls[k].addEventListener(k === 'text' ? 'input' : 'change', applyFilter); });
    window.addEventListener('hashchange', function () {
      if (FILTER_HASH.test(location.hash) || location.hash === '') { fromHash(); applyFilter(); }
    });
    applyFilter();
  }
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.setAttribute('open', ''); });
  });
})();
`;

// base-uri and form-action are not covered by default-src: both 'none'. navigate-to is honoured by
// no browser (Chromium logs it as unrecognised): a navigation can only come from markup, and every
// value in the page is escaped. Made at the first page, not when the module loads: the script's
// digest loads node:crypto (core/digest.ts), which a run writing no HTML and finding nothing
// needs for nothing else.
let csp: string | undefined;
export const htmlCsp = (): string =>
  (csp ??= `default-src 'none'; base-uri 'none'; form-action 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${sha256(HTML_SCRIPT, 'base64')}'`);
