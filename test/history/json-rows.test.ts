import { describe, expect, it } from 'vitest';
import { jsonRowsSql, rowsOfJson } from '../../src/history/json-rows.js';
import { SQLITE_DRIVERS, type SqliteDriver, sqliteDriver } from '../../src/history/sqlite-drivers.js';

// node:sqlite where this Node opens histories with it (Node 20 has none).
const DRIVERS = Object.entries(SQLITE_DRIVERS).filter(([name]) => name === 'sql.js' || sqliteDriver().name === 'node:sqlite');

const ROWS = [
  [1, 'plain', 2.5, null],
  [2, 'ünïcödé "quoted" \\ back\nline\u2028', -0.125, 'x'],
  [9_007_199_254_740_991, '', 1e300, '🙂'],
  [-7, '[1,2]', 3.0, '{"a":1}'],
];

describe.each(DRIVERS)('bulk reads (%s)', (name) => {
  const open = async () => {
    const db = await SQLITE_DRIVERS[name as SqliteDriver['name']].memory('m.sqlite');
    await db.exec('CREATE TABLE t (n INTEGER, s TEXT, r REAL, o); CREATE TABLE u (k INTEGER, b BLOB)');
    for (const row of ROWS) await db.run('INSERT INTO t VALUES (?, ?, ?, ?)', row);
    return db;
  };

  it('answers the rows `all` answers, value for value and type for type, read as one JSON text', async () => {
    const db = await open();
    try {
      const sql = 'SELECT n, s, r AS real_value, o FROM t WHERE n <> ? ORDER BY n';
      const statements: string[] = [];
      const all = db.all.bind(db);
      db.all = (q, p) => {
        statements.push(q);
        return all(q, p);
      };
      const bulk = await db.bulk(sql, [2]);
      expect(statements).toEqual([`SELECT json_group_array(json_array("n", "s", "real_value", "o")) AS rows FROM (${sql})`]);
      const plain = await all(sql, [2]);
      expect(plain).toHaveLength(3);
      expect(new Set(bulk.map((r) => JSON.stringify(r)))).toEqual(new Set(plain.map((r) => JSON.stringify(r))));
      expect(bulk.find((r) => r.n === -7)).toStrictEqual({ n: -7, s: '[1,2]', real_value: 3, o: '{"a":1}' });
      expect(bulk.find((r) => r.n === 9_007_199_254_740_991)).toStrictEqual({ n: 9_007_199_254_740_991, s: '', real_value: 1e300, o: '🙂' });
      expect(await db.bulk('SELECT n FROM t WHERE n > 1e18')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('reads row by row where JSON cannot hold a value (a blob) or the columns repeat a name: the same rows, said the same way', async () => {
    const db = await open();
    try {
      await db.run('INSERT INTO u VALUES (?, ?)', [1, new Uint8Array([0, 255, 7])]);
      const statements: string[] = [];
      const all = db.all.bind(db);
      db.all = (q, p) => {
        statements.push(q.slice(0, 26));
        return all(q, p);
      };
      const [blob] = await db.bulk('SELECT k, b FROM u');
      expect(blob!.k).toBe(1);
      expect([...(blob!.b as Uint8Array)]).toEqual([0, 255, 7]);
      expect(statements).toEqual(['SELECT json_group_array(js', 'SELECT k, b FROM u']);
      statements.length = 0;
      expect(await db.bulk('SELECT n, s AS n FROM t WHERE n = 1')).toEqual([{ n: 'plain' }]);
      expect(statements).toEqual(['SELECT n, s AS n FROM t WH']);
    } finally {
      await db.close();
    }
  });
});

describe('jsonRowsSql and rowsOfJson', () => {
  it('quote every column name, and take only an array of rows of as many values', () => {
    expect(jsonRowsSql('SELECT 1 AS "a""b"', ['a"b'])).toBe('SELECT json_group_array(json_array("a""b")) AS rows FROM (SELECT 1 AS "a""b")');
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
