/**
 * @module
 * Rows of a SQLite read built in JavaScript. better-sqlite3 makes each row
 * object from C++, one V8 API call per column, which cost more than the query
 * itself on a user's 50 sessions (docs/adapters.md#dialect-notes). Read as arrays
 * (`raw(true)`), the same rows are made by one small function per
 * statement whose object literal names the columns in order: an object of
 * the same keys, values and order as before, made at JIT speed, and every
 * row of a statement shares one hidden class.
 *
 * Statements that do not return rows, or return columns whose names cannot
 * be an ordinary literal key, are handed over as they are.
 */
import type { SqliteStatement } from 'kysely'

/** What this needs of a better-sqlite3 statement. */
export interface RawCapableStatement extends SqliteStatement {
  raw(toggle?: boolean): RawCapableStatement
  columns(): Array<{ readonly name: string }>
}

type RowMaker = (values: readonly unknown[]) => Record<string, unknown>

/**
 * One function per column list: `(v) => ({ "id": v[0], "name": v[1], … })`.
 * A repeated name keeps its last value, as when better-sqlite3 sets the
 * properties one by one. Keys are JSON string literals, so a name can never
 * become code; `__proto__` (which a literal would treat as the prototype) is
 * refused and left to the native path.
 */
function rowMaker(names: readonly string[]): RowMaker | undefined {
  if (names.length === 0 || names.includes('__proto__')) return undefined
  const properties = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(', ')
  return new Function('values', `return { ${properties} }`) as RowMaker
}

/**
 * @example
 * const statement = withJsRows(database.prepare('select * from "user" where "id" = ?'))
 * statement.all(['u1']) // [{ id: 'u1', ... }], as database.prepare(...).all(['u1']) answers
 */
export function withJsRows(statement: RawCapableStatement): SqliteStatement {
  if (!statement.reader) return statement
  const make = rowMaker(statement.columns().map((column) => column.name))
  if (!make) return statement
  const rows = statement.raw(true)
  return {
    reader: true,
    all(parameters) {
      // The driver's fresh array, filled in place: no second array per read.
      const values = rows.all(parameters) as unknown[]
      for (let index = 0; index < values.length; index++) values[index] = make(values[index] as unknown[])
      return values
    },
    run: (parameters) => rows.run(parameters),
    *iterate(parameters) {
      for (const values of rows.iterate(parameters) as IterableIterator<unknown[]>) yield make(values)
    },
  }
}
