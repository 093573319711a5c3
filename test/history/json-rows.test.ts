// A bulk read of an SQLite history (json-rows.ts) on each driver: the rows `all` answers, read as
// one JSON text; where JSON would not hold a value exactly, or a column name repeats, read row by
// row instead, so a damaged file reads the same either way.
import { describe, expect, it } from 'vitest';
import { jsonRowsSql, rowsOfJson } from '../../src/history/json-rows.js';
import { SQLITE_DRIVERS } from '../../src/history/sqlite-drivers.js';
import { DRIVER_NAMES } from './drivers.js';

const ROWS = [
  [1, 'plain', null],
  [2, 'ünïcödé "quoted" \\ back\nline\u2028', 'x'],
  [Number.MAX_SAFE_INTEGER, '', '🙂'],
  [-7, '[1,2]', '{"a":1}'],
];

describe.each(DRIVER_NAMES)('bulk reads (%s)', (name) => {
  const open = async () => {
    const db = await SQLITE_DRIVERS[name].memory('m.sqlite');
    await db.exec('CREATE TABLE t (n INTEGER, s TEXT, o); CREATE TABLE u (k INTEGER, b)');
    for (const row of ROWS) await db.run('INSERT INTO t VALUES (?, ?, ?)', row);
    return db;
  };
  /** `db.all` counted: the first `width` characters of each statement it runs. */
  const counted = (db: Awaited<ReturnType<typeof open>>, width = 26) => {
    const statements: string[] = [];
    const all = db.all.bind(db);
    db.all = (q, p) => {
      statements.push(q.slice(0, width));
      return all(q, p);
    };
    return { statements, all };
  };

  it('answers the rows `all` answers, value for value and type for type, read as one JSON text', async () => {
    const db = await open();
    try {
      const sql = 'SELECT n, s AS text_value, o FROM t WHERE n <> ? ORDER BY n';
      const { statements, all } = counted(db, 60);
      const bulk = await db.bulk(sql, [2]);
      expect(statements).toEqual(['SELECT json_group_array(json_array(CASE WHEN typeof("n") IN ']);
      const plain = await all(sql, [2]);
      expect(plain).toHaveLength(3);
      expect(new Set(bulk.map((r) => JSON.stringify(r)))).toEqual(new Set(plain.map((r) => JSON.stringify(r))));
      expect(bulk.find((r) => r.n === -7)).toStrictEqual({ n: -7, text_value: '[1,2]', o: '{"a":1}' });
      expect(bulk.find((r) => r.n === Number.MAX_SAFE_INTEGER)).toStrictEqual({ n: Number.MAX_SAFE_INTEGER, text_value: '', o: '🙂' });
      expect(await db.bulk('SELECT n FROM t WHERE n > 1e18')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('reads row by row where JSON would not hold a value exactly (a real, an integer past 2^53, a blob) or a name repeats: the same rows', async () => {
    const db = await open();
    try {
      // SQLite's JSON writes a real to 15 digits: 0.30000000000000004 would come back as 0.3.
      await db.run('INSERT INTO u VALUES (?, ?)', [1, 0.1 + 0.2]);
      await db.run('INSERT INTO u VALUES (?, ?)', [2, new Uint8Array([0, 255, 7])]);
      const { statements } = counted(db);
      const [real, blob] = await db.bulk('SELECT k, b FROM u ORDER BY k');
      expect(real).toEqual({ k: 1, b: 0.30000000000000004 });
      expect([...(blob!.b as Uint8Array)]).toEqual([0, 255, 7]);
      expect(statements).toEqual(['SELECT json_group_array(js', 'SELECT k, b FROM u ORDER B']);
      statements.length = 0;
      expect(await db.bulk('SELECT k, 2.5 AS r FROM u WHERE k = 2')).toEqual([{ k: 2, r: 2.5 }]);
      expect(statements).toEqual(['SELECT json_group_array(js', 'SELECT k, 2.5 AS r FROM u ']);
      statements.length = 0;
      expect(await db.bulk('SELECT n, s AS n FROM t WHERE n = 1')).toEqual([{ n: 'plain' }]);
      expect(statements).toEqual(['SELECT n, s AS n FROM t WH']);
    } finally {
      await db.close();
    }
  });

  it('an integer past 2^53 goes row by row too, where the driver says what it makes of it', async () => {
    const db = await open();
    try {
      await db.run('INSERT INTO u VALUES (3, 9007199254740993)');
      const { statements } = counted(db);
      const direct = await db.all('SELECT b FROM u WHERE k = 3').then((rows) => rows, (e: Error) => e.message);
      statements.length = 0;
      const bulk = await db.bulk('SELECT b FROM u WHERE k = 3').then((rows) => rows, (e: Error) => e.message);
      expect(bulk).toEqual(direct);
      expect(statements).toEqual(['SELECT json_group_array(js', 'SELECT b FROM u WHERE k = ']);
    } finally {
      await db.close();
    }
  });
});

describe('jsonRowsSql and rowsOfJson', () => {
  it('quote every column name, and take only an array of rows of as many values', () => {
    expect(jsonRowsSql('SELECT 1 AS "a""b"', ['a"b'])).toBe(
      `SELECT json_group_array(json_array(CASE WHEN typeof("a""b") IN ('text', 'null') OR (typeof("a""b") = 'integer' AND "a""b" BETWEEN -9007199254740991 AND 9007199254740991) THEN "a""b" ELSE x'' END)) AS rows FROM (SELECT 1 AS "a""b")`,
    );
    expect(jsonRowsSql('SELECT 1 AS a, 2 AS a', ['a', 'a'])).toBeNull();
    expect(rowsOfJson('[[1,"x",null]]', ['a', 'b', 'c'])).toStrictEqual([{ a: 1, b: 'x', c: null }]);
    expect(rowsOfJson('[]', ['a'])).toStrictEqual([]);
    expect(rowsOfJson('[[1,2]]', ['a'])).toBeNull();
    expect(rowsOfJson('[1]', ['a'])).toBeNull();
    expect(rowsOfJson('{"a":1}', ['a'])).toBeNull();
    expect(rowsOfJson(null, ['a'])).toBeNull();
    expect(rowsOfJson(undefined, ['a'])).toBeNull();
  });
});
