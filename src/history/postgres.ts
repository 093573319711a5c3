// The run history in PostgreSQL, for teams whose runs come from many ephemeral runners: the same
// tables as the SQLite file, in a schema of their own (`steward`), migrated by steward itself
// (versioned, forward-only; a newer schema is refused), written in transactions that take an
// advisory lock per instance so two runners of one instance compute their lifecycles one after
// the other. The driver is node-postgres (`pg`, pure JavaScript). The URL carries a password: it
// is never shown; messages name the history by where it came from.
import type pg from 'pg';
import { InputError } from '../core/problem.js';
import { notAHistory } from './database.js';
import { HISTORY_SCHEMA_VERSION, PG_MIGRATIONS } from './migrations.js';
import type { HistoryDatabase, Row, SqlValue } from './types.js';

/** The PostgreSQL schema steward's tables live in (so a shared database keeps them apart). */
export const PG_SCHEMA = 'steward';

/** `?` placeholders numbered as PostgreSQL wants them (steward's statements hold no literal `?`). */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

class PgHistory implements HistoryDatabase {
  constructor(
    readonly file: string,
    readonly shown: string,
    private readonly client: pg.Client,
  ) {}

  async all(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    return (await this.client.query(numbered(sql), params)).rows as Row[];
  }

  async bulk(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    return this.all(sql, params);
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

/**
 * Brings the schema to HISTORY_SCHEMA_VERSION in one transaction under an advisory lock, so
 * runners starting together migrate once, one after the other; a newer schema is refused.
 */
async function migrate(client: pg.Client, history: HistoryDatabase, shown: string): Promise<void> {
  await history.write(async () => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`);
    // Session-wide (not LOCAL): every later statement of this connection reads steward's tables.
    await client.query(`SET search_path TO ${PG_SCHEMA}`);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const rows = (await client.query('SELECT version FROM schema_version')).rows as { version: number }[];
    const version = rows[0]?.version ?? 0;
    if (version > HISTORY_SCHEMA_VERSION) throw notAHistory(shown, `schema version ${version} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`);
    for (let v = version; v < HISTORY_SCHEMA_VERSION; v++) {
      const step = PG_MIGRATIONS[v]!;
      await client.query(step.sql);
      await step.convert?.(history);
      if (step.after) await client.query(step.after);
    }
    if (version === 0) await client.query('INSERT INTO schema_version (version) VALUES ($1)', [HISTORY_SCHEMA_VERSION]);
    else if (version < HISTORY_SCHEMA_VERSION) await client.query('UPDATE schema_version SET version = $1', [HISTORY_SCHEMA_VERSION]);
  }, 'steward-history-migrate');
}

/** Why a connection failed, without the URL (a driver message may quote it). */
const reason = (e: unknown) => (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));

/**
 * Connects to the PostgreSQL history at `url` and migrates its schema; `shown` names it in
 * messages. An unreachable server or a newer schema is bad input (exit 2) before any request.
 */
export async function openPgHistory(url: string, shown: string, options: { redact(text: string): string }): Promise<HistoryDatabase> {
  // The driver loads only for a PostgreSQL history: most runs have none, and it costs start-up.
  const { default: driver } = await import('pg');
  const client = new driver.Client({ connectionString: url, connectionTimeoutMillis: 15_000, application_name: 'steward' });
  // An error after connecting (the server going away) reaches the next query; this keeps it from crashing the process meanwhile.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    throw new InputError([{ file: shown, line: 0, column: 0, message: options.redact(`cannot connect to the PostgreSQL history: ${reason(e)}`) }]);
  }
  try {
    const history = new PgHistory(shown, shown, client);
    await migrate(client, history, shown);
    return history;
  } catch (e) {
    await client.end().catch(() => {});
    if (e instanceof InputError) throw e;
    throw notAHistory(shown, options.redact(reason(e)));
  }
}
