/**
 * Kysely's SQLite dialect over Node's built-in `node:sqlite` (no native addon to build): the dialect
 * expects a better-sqlite3-shaped database, which this adapter provides around a `DatabaseSync`.
 */

import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** node:sqlite binds numbers, bigints, strings, null and byte arrays; booleans become 0/1. */
function bindable(values: ReadonlyArray<unknown>): SQLInputValue[] {
  return values.map((v) => {
    if (typeof v === "boolean") return v ? 1 : 0;
    if (v === undefined) return null;
    return v as SQLInputValue;
  });
}

class Statement implements SqliteStatement {
  readonly reader: boolean;
  constructor(private readonly stmt: StatementSync) {
    this.reader = stmt.columns().length > 0;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.stmt.all(...bindable(parameters));
  }
  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.stmt.run(...bindable(parameters));
  }
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.stmt.iterate(...bindable(parameters)) as IterableIterator<unknown>;
  }
}

/** The adapter; statements are prepared once per SQL text and reused. */
export function kyselySqlite(db: DatabaseSync): SqliteDatabase {
  const prepared = new Map<string, Statement>();
  return {
    close: () => db.close(),
    prepare: (sql: string) => {
      let stmt = prepared.get(sql);
      if (stmt === undefined) {
        stmt = new Statement(db.prepare(sql));
        if (prepared.size > 500) prepared.clear();
        prepared.set(sql, stmt);
      }
      return stmt;
    },
  };
}
