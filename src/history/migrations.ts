// The history's schema, step by step: each entry brings a history one version up, in one
// transaction; schema 2's data is moved by steward itself (spans.ts). A history whose version is
// newer than HISTORY_SCHEMA_VERSION is refused, never changed.
import { OPEN_RUN, spansFromV1 } from './spans.js';
import type { HistoryDatabase } from './types.js';

/** The schema this steward writes; each entry of the migrations brings a history one version up. */
export const HISTORY_SCHEMA_VERSION = 4;

/** One step of the schema: its statements, then the data steward moves itself (`convert`), then `after`; all in one transaction. */
export interface Migration {
  sql: string;
  convert?: (db: HistoryDatabase) => Promise<void>;
  after?: string;
}

/** Schema 2 in either dialect: texts once per variant, spans of runs (spans.ts); runs folded past `keep`. */
function spansMigration(dialect: 'sqlite' | 'postgres'): Migration {
  const id = dialect === 'sqlite' ? 'id INTEGER PRIMARY KEY' : 'id SERIAL PRIMARY KEY';
  return {
    sql: `CREATE TABLE texts (
       ${id},
       fingerprint TEXT NOT NULL,
       policy TEXT NOT NULL,
       resource_kind TEXT NOT NULL,
       resource_id TEXT NOT NULL,
       resource_name TEXT,
       severity TEXT NOT NULL,
       message TEXT NOT NULL
     );
     CREATE INDEX texts_fingerprint ON texts (fingerprint);
     CREATE TABLE spans (
       ${id},
       instance TEXT NOT NULL,
       text_id INTEGER NOT NULL REFERENCES texts (id),
       status TEXT NOT NULL,
       lifecycle TEXT NOT NULL,
       first_seen TEXT NOT NULL,
       first_run INTEGER NOT NULL,
       last_run INTEGER NOT NULL
     );
     CREATE INDEX spans_last ON spans (instance, last_run);
     CREATE TABLE policy_spans (
       ${id},
       instance TEXT NOT NULL,
       policy TEXT NOT NULL,
       status TEXT NOT NULL,
       first_run INTEGER NOT NULL,
       last_run INTEGER NOT NULL
     );
     CREATE INDEX policy_spans_last ON policy_spans (instance, last_run);
     ALTER TABLE runs ADD COLUMN folded INTEGER NOT NULL DEFAULT 0;`,
    convert: spansFromV1,
    after: 'DROP TABLE findings; DROP TABLE run_policies;',
  };
}

/**
 * Schema 1 as steward has always written it: its text is checked against every file's (database.ts),
 * so it stays byte for byte.
 */
const V1_SQLITE = `CREATE TABLE runs (
     id INTEGER PRIMARY KEY,
     started_at TEXT NOT NULL,
     instance TEXT NOT NULL,
     tool_version TEXT NOT NULL,
     policy_hash TEXT NOT NULL,
     gate TEXT NOT NULL,
     fail_on TEXT NOT NULL,
     policies INTEGER NOT NULL,
     resources INTEGER NOT NULL,
     violations INTEGER NOT NULL,
     waived INTEGER NOT NULL,
     errors INTEGER NOT NULL,
     by_severity TEXT NOT NULL,
     new_count INTEGER NOT NULL,
     reopened_count INTEGER NOT NULL,
     fixed_count INTEGER NOT NULL,
     requests INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL
   );
   CREATE INDEX runs_instance ON runs (instance, id);
   CREATE TABLE run_policies (
     run_id INTEGER NOT NULL REFERENCES runs (id),
     policy TEXT NOT NULL,
     status TEXT NOT NULL,
     PRIMARY KEY (run_id, policy)
   );
   CREATE TABLE findings (
     run_id INTEGER NOT NULL REFERENCES runs (id),
     fingerprint TEXT NOT NULL,
     policy TEXT NOT NULL,
     resource_kind TEXT NOT NULL,
     resource_id TEXT NOT NULL,
     resource_name TEXT,
     status TEXT NOT NULL,
     severity TEXT NOT NULL,
     message TEXT NOT NULL,
     first_seen TEXT NOT NULL,
     lifecycle TEXT NOT NULL
   );
   CREATE INDEX findings_run ON findings (run_id, policy);
   CREATE INDEX findings_fingerprint ON findings (fingerprint);`;

/**
 * Schema 3: each finding's spans found from its text. When each finding of a run was first seen
 * (spans.ts `loadPrior`) was read by scanning every span of the instance, a cost that grew with
 * the history (a tenth of recording run 366 of the bench, BENCHMARKS.md §10).
 */
const SPANS_BY_TEXT: Migration = { sql: 'CREATE INDEX spans_text ON spans (text_id);' };

/**
 * Schema 4: a span still open says OPEN_RUN (spans.ts), so a run that holds it again leaves it as
 * it is. Open were the spans whose last run is their policy's last evaluating run (evaluated: a
 * status of pass or fail, as schema 3 wrote them).
 */
const OPEN_SPANS: Migration = {
  sql: `UPDATE spans SET last_run = ${OPEN_RUN} WHERE id IN (
     SELECT s.id FROM spans s
     JOIN texts t ON t.id = s.text_id
     JOIN (SELECT instance, policy, MAX(last_run) AS last FROM policy_spans WHERE status IN ('pass', 'fail') GROUP BY instance, policy) p
       ON p.instance = s.instance AND p.policy = t.policy AND p.last = s.last_run
   );`,
};

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  // 0 → 1
  { sql: V1_SQLITE },
  // 1 → 2
  spansMigration('sqlite'),
  // 2 → 3
  SPANS_BY_TEXT,
  // 3 → 4
  OPEN_SPANS,
];

/** The same steps in PostgreSQL (its tables in the `steward` schema, postgres.ts): serial ids, and findings ordered by a sequence. */
export const PG_MIGRATIONS: readonly Migration[] = [
  { sql: V1_SQLITE.replace('id INTEGER PRIMARY KEY', 'id SERIAL PRIMARY KEY').replace('CREATE TABLE findings (', 'CREATE TABLE findings (\n     seq SERIAL PRIMARY KEY,') },
  spansMigration('postgres'),
  SPANS_BY_TEXT,
  OPEN_SPANS,
];
