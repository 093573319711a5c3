import { benchLimits } from './bench-limits.mjs';
const table = (h, rows) => [h.join(' | '), ...rows.map((r) => r.join(' | '))].join('\n');
await benchLimits(console.log, table, (ok, what) => { if (!ok) console.log('FAIL', what); return ok; });
