// The HTML report's inline style and script. The page reads fully without the script; the
// script only sorts a table by a clicked header and filters findings by text and severity.
// The Content-Security-Policy allows nothing to be fetched (the file works offline, attached
// to an e-mail or an audit ticket) and no script but this one, by its hash: text that slipped
// past escaping still could not run.
import { createHash } from 'node:crypto';


export const HTML_STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #4a525c; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; }
h3 { font-size: 1rem; margin: 20px 0 6px; }
.meta { color: var(--muted); margin: 0; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 4px; font-weight: 600; color: #fff; }
.verdict.pass { background: #1a7f37; } .verdict.fail { background: #b42318; } .verdict.error { background: #7a4d00; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
table.compact { width: auto; min-width: 240px; }
/* A policy's findings are laid out only when scrolled near: 10,000 rows open fast. */
.policy-findings { content-visibility: auto; contain-intrinsic-size: auto 600px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); }
td.num, th.num { text-align: right; }
th button { font: inherit; font-weight: 600; border: 0; background: none; padding: 0; cursor: pointer; color: inherit; }
.sev { font-weight: 600; }
.sev-critical { color: #8c0f0f; } .sev-high { color: #a4260e; } .sev-medium { color: #7a4d00; } .sev-low { color: #0b5394; } .sev-info { color: #4a525c; }
.expiring { background: #fff4d6; }
.lifecycle-new, .lifecycle-reopened { font-weight: 600; }
.filters { display: flex; gap: 16px; align-items: end; flex-wrap: wrap; margin: 8px 0; }
.filters label { display: flex; flex-direction: column; font-size: 0.9rem; color: var(--muted); }
.trend { width: 100%; max-width: 640px; height: auto; }
.trend .axis { stroke: var(--muted); }
.trend .line { fill: none; stroke: #0b5394; stroke-width: 2; }
.trend .point { fill: #0b5394; } .trend .point.gate-pass { fill: #1a7f37; } .trend .point.gate-error { fill: #7a4d00; }
.trend text { font-size: 12px; fill: var(--muted); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; }
.hidden { display: none; }
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
  var text = document.getElementById('filter-text');
  var severity = document.getElementById('filter-severity');
  function applyFilter() {
    var needle = text.value.toLowerCase();
    var sev = severity.value;
    document.querySelectorAll('tr.finding').forEach(function (row) {
      var show = (!needle || row.textContent.toLowerCase().indexOf(needle) >= 0) && (!sev || row.getAttribute('data-severity') === sev);
      row.classList.toggle('hidden', !show);
    });
  }
  if (text && severity) {
    document.getElementById('filters').classList.remove('hidden');
    text.addEventListener('input', applyFilter);
    severity.addEventListener('change', applyFilter);
  }
})();
`;

// base-uri and form-action are not covered by default-src: both 'none'. navigate-to is honoured by
// no browser (Chromium logs it as unrecognised): a navigation can only come from markup, and every
// value in the page is escaped.
export const HTML_CSP = `default-src 'none'; base-uri 'none'; form-action 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${createHash('sha256').update(HTML_SCRIPT).digest('base64')}'`;
