// The run history in PostgreSQL, for teams whose runs come from many ephemeral runners: the same
// tables as the SQLite file, in a schema of their own (`steward`), migrated by steward itself
// (versioned, forward-only; a newer schema is refused), written in transactions that take an
// advisory lock per instance so two runners of one instance compute their lifecycles one after
// the other. The driver is node-postgres (`pg`, pure JavaScript). The URL carries a password: it
// is never shown; messages name the history by where it came from.
import pg from 'pg';
import { InputError } from '../core/problem.js';
import { HISTORY_SCHEMA_VERSION, type HistoryDatabase, notAHistory, type Row, type SqlValue } from './database.js';

/** The PostgreSQL schema steward's tables live in (so a shared database keeps them apart). */
export const PG_SCHEMA = 'steward';

const MIGRATIONS: readonly string[] = [
  // 0 → 1: the tables of the SQLite history, with a sequence ordering findings as inserted.
  `CREATE TABLE runs (
     id SERIAL PRIMARY KEY,
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
     seq SERIAL PRIMARY KEY,
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
   CREATE INDEX findings_fingerprint ON findings (fingerprint);`,
];

/** `?` placeholders numbered as PostgreSQL wants them (steward's statements hold no literal `?`). */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

class PgHistory implements HistoryDatabase {
  readonly rowOrder = 'seq';
  constructor(
    readonly file: string,
    readonly shown: string,
    private readonly client: pg.Client,
  ) {}

  async all(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    return (await this.client.query(numbered(sql), params)).rows as Row[];
  }

  async run(sql: string, params: SqlValue[] = []): Promise<void> {
    await this.client.query(numbered(sql), params);
  }

  async write<T>(fn: () => Promise<T>, lock?: string): Promise<T> {
    await this.client.query('BEGIN');
    try {
      if (lock !== undefined) await this.client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lock]);
      const out = await fn();
      await this.client.query('COMMIT');
      return out;
    } catch (e) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw e;
    }
  }

  async save(): Promise<void> {
    // Each transaction is durable once committed.
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** Brings the schema to HISTORY_SCHEMA_VERSION, one runner at a time; a newer one is refused. */
async function migrate(client: pg.Client, shown: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', ['steward-history-migrate']);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`);
    await client.query(`SET search_path TO ${PG_SCHEMA}`);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const rows = (await client.query('SELECT version FROM schema_version')).rows as { version: number }[];
    const version = rows[0]?.version ?? 0;
    if (version > HISTORY_SCHEMA_VERSION) throw notAHistory(shown, `schema version ${version} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`);
    for (let v = version; v < HISTORY_SCHEMA_VERSION; v++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[v]!);
        await client.query(v === 0 ? 'INSERT INTO schema_version (version) VALUES (1)' : 'UPDATE schema_version SET version = $1', v === 0 ? [] : [v + 1]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['steward-history-migrate']).catch(() => {});
  }
}

/** Why a connection failed, without the URL (a driver message may quote it). */
const reason = (e: unknown) => (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));

/**
 * Connects to the PostgreSQL history at `url` and migrates its schema; `shown` names it in
 * messages. An unreachable server or a newer schema is bad input (exit 2) before any request.
 */
export async function openPgHistory(url: string, shown: string, options: { redact(text: string): string }): Promise<HistoryDatabase> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000, application_name: 'steward' });
  // An error after connecting (the server going away) reaches the next query; this keeps it from crashing the process meanwhile.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    throw new InputError([{ file: shown, line: 0, column: 0, message: options.redact(`cannot connect to the PostgreSQL history: ${reason(e)}`) }]);
  }
  try {
    await migrate(client, shown);
    return new PgHistory(shown, shown, client);
  } catch (e) {
    await client.end().catch(() => {});
    if (e instanceof InputError) throw e;
    throw notAHistory(shown, options.redact(reason(e)));
  }
}
