/**
 * @module
 * The `Adapter` contract over a Kysely instance, for SQLite (better-sqlite3),
 * PostgreSQL (pg) and MySQL/MariaDB (mysql2). Queries are written with
 * Kysely's `sql` tag rather than the typed builder: tables and columns come
 * from the runtime `Schema`, so there is no compile-time database type to
 * check against, and raw fragments keep each dialect's SQL visible.
 *
 * Atomicity: `consume` deletes a row only if it still matches, and reports a
 * winner only when its own delete removed the row, so two concurrent
 * consumers of one single-use token never both succeed (a reset token is
 * consumed once: docs/accounts.md#password-reset).
 */
import { sql, type CompiledQuery, type Kysely, type QueryExecutorProvider, type QueryResult, type RawBuilder } from 'kysely'
import { withDialect, type Adapter, type AdapterFactory, type Joins, type Row, type SortBy, type WhereInput } from '../adapter.js'
import { resolveJoins } from '../join.js'
import { columnName, tableName, type Schema } from '../schema.js'
import { supportsReturning, type SqlDialect } from './dialect.js'
import { toDatabaseError } from './errors.js'
import { migrateSchema } from './migrate.js'
import { lockTimeoutMillis } from './lock-timeout.js'
import { fromRow, toColumns, withDefaults } from './rows.js'
import { countStatement, selectStatement, type SelectContext } from './select-sql.js'
import { createStatementCache, type StatementCache } from './statement-cache.js'
import { whereSql } from './where-sql.js'

export type { SqlDialect } from './dialect.js'

export interface KyselyAdapterOptions<DB> {
  /** A Kysely instance on one of the three supported dialects. */
  readonly db: Kysely<DB>
  readonly dialect: SqlDialect
  /** Whether `close()` destroys `db`: true when the adapter created the connection. Defaults to false. */
  readonly ownsConnection?: boolean
  /**
   * How long a statement in one of Gatehouse's transactions waits for a row
   * lock, in milliseconds, before it fails with a `TRANSIENT` DatabaseError
   * (503 with Retry-After); `0` keeps the server's setting. `kyselyAdapter`
   * defaults it to 10 000 (docs/adapters.md#transactions). Set with `SET
   * LOCAL` on PostgreSQL; on MySQL for the session, then restored. Ignored on SQLite.
   */
  readonly lockTimeout?: number | undefined
}

type RawRow = Record<string, unknown>

/**
 * The contract lets callers name the row type they expect (`findOne<User>`);
 * the adapter cannot check that type, only hand the row on under it.
 */
function asRow<T extends Row>(row: Row): T {
  return row as T
}

/** How often `consume` tries again when a concurrent caller took the row it picked and others still match. */
const CONSUME_ATTEMPTS = 5

/**
 * Binds a Kysely instance to Gatehouse's schema.
 *
 * @example
 * import Database from 'better-sqlite3'
 * import { Kysely, SqliteDialect } from 'kysely'
 * const db = new Kysely({ dialect: new SqliteDialect({ database: new Database('auth.db') }) })
 * const auth = createAuth({ database: kyselyAdapter({ db, dialect: 'sqlite' }) })
 */
export function kyselyAdapter<DB>(options: KyselyAdapterOptions<DB>): AdapterFactory {
  const lockTimeout = lockTimeoutMillis(options.lockTimeout, 'kyselyAdapter')
  return withDialect(options.dialect, ({ schema }) => createKyselyAdapter({ ...options, lockTimeout }, schema))
}

/**
 * The adapter itself, for callers that already hold the merged schema.
 *
 * @example
 * const adapter = createKyselyAdapter({ db, dialect: 'postgres' }, schema)
 * await adapter.migrate?.()
 */
export function createKyselyAdapter<DB>(options: KyselyAdapterOptions<DB>, schema: Schema): Adapter {
  let closed = false
  const close = async (): Promise<void> => {
    if (closed || options.ownsConnection !== true) return
    closed = true
    await options.db.destroy()
  }
  const lockTimeout = options.dialect === 'sqlite' || options.lockTimeout === undefined ? 0 : lockTimeoutMillis(options.lockTimeout, 'createKyselyAdapter')
  return bind(options.db, { schema, dialect: options.dialect, close, statements: createStatementCache(), lockTimeout })
}

interface Shared {
  readonly schema: Schema
  readonly dialect: SqlDialect
  readonly close: () => Promise<void>
  /** Compiled reads by shape, shared with every transaction of the adapter: the SQL is the same on any connection. */
  readonly statements: StatementCache
  /** Milliseconds a statement in a transaction waits for a row lock; 0 leaves the server's setting. */
  readonly lockTimeout: number
}

function bind<DB>(db: Kysely<DB>, shared: Shared): Adapter {
  const { schema, dialect } = shared
  const returning = supportsReturning(dialect)
  const table = (model: string) => sql.id(tableName(schema, model))
  /** The primary key column, whatever `naming` calls it (docs/adapters.md#naming-tables-and-columns). */
  const idName = (model: string) => columnName(schema, model, 'id')
  const id = (model: string) => sql.id(idName(model))

  // InnoDB defaults to REPEATABLE READ, whose snapshot would hide what the previous holder of a `lock` committed.
  const begin = () => (dialect === 'mysql' ? db.transaction().setIsolationLevel('read committed') : db.transaction())

  /** Runs `work` in a new transaction, with the lock timeout set in it (docs/adapters.md#transactions). */
  async function transact<R>(work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
    const millis = shared.lockTimeout
    return begin().execute(async (trx) => {
      if (millis === 0) return work(trx)
      if (dialect === 'postgres') {
        await sql`select set_config('lock_timeout', ${String(millis)}, true)`.execute(trx)
        return work(trx)
      }
      // InnoDB has no per-transaction setting: set it for the session, and give the pool back the session's own value.
      await sql.raw(`set @gatehouse_lock_wait = @@session.innodb_lock_wait_timeout, session innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(millis / 1000))}`).execute(trx)
      const restore = () => sql.raw('set session innodb_lock_wait_timeout = @gatehouse_lock_wait').execute(trx)
      let result: R
      try {
        result = await work(trx)
      } catch (error) {
        // The transaction is failing already (possibly with its connection): its own error is the one to report.
        await restore().catch(() => undefined)
        throw error
      }
      await restore()
      return result
    })
  }

  const reads: SelectContext = { schema, dialect, cache: shared.statements, compiler: db }

  async function run(
    model: string,
    query: RawBuilder<RawRow>,
    executor: QueryExecutorProvider = db,
  ): Promise<QueryResult<RawRow>> {
    try {
      return await query.execute(executor)
    } catch (error) {
      throw toDatabaseError(error, dialect, model)
    }
  }

  async function runCompiled(model: string, query: CompiledQuery<RawRow>): Promise<QueryResult<RawRow>> {
    try {
      return await db.executeQuery(query)
    } catch (error) {
      throw toDatabaseError(error, dialect, model)
    }
  }

  /** `qualifier` is the base table's alias in a joined select. */
  function where(model: string, input: WhereInput | undefined, qualifier?: string): RawBuilder<unknown> {
    const clause = whereSql({ schema, model, dialect, qualifier }, input)
    return clause === undefined ? sql`` : sql` where ${clause}`
  }

  async function selectById(model: string, rowId: unknown, executor: QueryExecutorProvider = db): Promise<Row | null> {
    const { rows } = await run(model, sql<RawRow>`select * from ${table(model)} where ${id(model)} = ${rowId}`, executor)
    return rows[0] ? fromRow(schema, model, rows[0]) : null
  }

  const adapter: Adapter = {
    id: `kysely-${dialect}`,
    capabilities: { transactions: true, migrations: true },
    schema,

    async create<T extends Row = Row>({ model, data }: { model: string; data: Row }): Promise<T> {
      const filled = withDefaults(schema, model, data)
      if (typeof filled.id !== 'string' || filled.id === '') throw new TypeError(`create on "${model}" needs a string id`)
      const { columns, values } = toColumns(schema, model, filled, dialect)
      const insert = sql<RawRow>`insert into ${table(model)} (${sql.join(columns.map((c) => sql.id(c)))}) values (${sql.join(values)})`
      if (returning) {
        const { rows } = await run(model, sql<RawRow>`${insert} returning *`)
        if (!rows[0]) throw new Error(`Insert into "${model}" returned no row`)
        return asRow<T>(fromRow(schema, model, rows[0]))
      }
      await run(model, insert)
      const row = await selectById(model, filled.id)
      if (!row) throw new Error(`Inserted row of "${model}" could not be read back`)
      return asRow<T>(row)
    },

    async findOne<T extends Row = Row>({ model, where: input, join }: { model: string; where: WhereInput; join?: Joins }): Promise<T | null> {
      const joins = resolveJoins(schema, model, join)
      const { query, read } = selectStatement(reads, { model, joins, where: input, limit: 1 })
      const { rows } = await runCompiled(model, query)
      return rows[0] ? asRow<T>(read(rows[0])) : null
    },

    async findMany<T extends Row = Row>(args: {
      model: string
      where?: WhereInput
      sortBy?: SortBy | readonly SortBy[]
      limit?: number
      offset?: number
      join?: Joins
    }): Promise<T[]> {
      const { model } = args
      const joins = resolveJoins(schema, model, args.join)
      const { query, read } = selectStatement(reads, { ...args, joins })
      const { rows } = await runCompiled(model, query)
      return rows.map((row) => asRow<T>(read(row)))
    },

    async count({ model, where: input }) {
      const { rows } = await runCompiled(model, countStatement(reads, model, input))
      // COUNT is int8 on PostgreSQL, which pg returns as a string.
      return Number(rows[0]?.total ?? 0)
    },

    async update<T extends Row = Row>({ model, where: input, update }: { model: string; where: WhereInput; update: Row }): Promise<T | null> {
      const { columns, values } = toColumns(schema, model, update, dialect)
      const first = sql`select ${id(model)} from ${table(model)}${where(model, input)} order by ${id(model)} limit 1`
      if (columns.length === 0) {
        const { rows } = await run(model, sql<RawRow>`select * from ${table(model)}${where(model, input)} order by ${id(model)} limit 1`)
        return rows[0] ? asRow<T>(fromRow(schema, model, rows[0])) : null
      }
      const assignments = sql.join(columns.map((column, index) => sql`${sql.id(column)} = ${values[index]}`))
      if (returning) {
        // The subquery picks the one row; repeating the clause outside keeps a row that stopped matching untouched.
        const query = sql<RawRow>`update ${table(model)} set ${assignments} where ${id(model)} in (${first})${whereAnd(model, input)} returning *`
        const { rows } = await run(model, query)
        return rows[0] ? asRow<T>(fromRow(schema, model, rows[0])) : null
      }
      // MySQL has neither RETURNING nor LIMIT in an IN subquery: lock the row, update it by id, read it back.
      const lockAndUpdate = async (executor: QueryExecutorProvider): Promise<T | null> => {
        const { rows } = await run(model, sql<RawRow>`${first} for update`, executor)
        const target = rows[0]?.[idName(model)]
        if (target === undefined) return null
        await run(model, sql<RawRow>`update ${table(model)} set ${assignments} where ${id(model)} = ${target}`, executor)
        const row = await selectById(model, typeof update.id === 'string' ? update.id : target, executor)
        return row ? asRow<T>(row) : null
      }
      if (db.isTransaction) return lockAndUpdate(db)
      try {
        return await transact(lockAndUpdate)
      } catch (error) {
        throw toDatabaseError(error, dialect, model)
      }
    },

    async updateMany({ model, where: input, update }) {
      const { columns, values } = toColumns(schema, model, update, dialect)
      if (columns.length === 0) return adapter.count({ model, where: input })
      const assignments = sql.join(columns.map((column, index) => sql`${sql.id(column)} = ${values[index]}`))
      const result = await run(model, sql<RawRow>`update ${table(model)} set ${assignments}${where(model, input)}`)
      // mysql2 connects with the FOUND_ROWS flag, so MySQL reports matched rows here, not only changed ones.
      return Number(result.numAffectedRows ?? 0n)
    },

    async delete({ model, where: input }) {
      await run(model, sql<RawRow>`delete from ${table(model)}${where(model, input)}`)
    },

    async deleteMany({ model, where: input }) {
      const result = await run(model, sql<RawRow>`delete from ${table(model)}${where(model, input)}`)
      return Number(result.numAffectedRows ?? 0n)
    },

    async consume<T extends Row = Row>({ model, where: input }: { model: string; where: WhereInput }): Promise<T | null> {
      for (let attempt = 0; attempt < CONSUME_ATTEMPTS; attempt++) {
        if (returning) {
          const query = sql<RawRow>`delete from ${table(model)} where ${id(model)} in (select ${id(model)} from ${table(model)}${where(model, input)} order by ${id(model)} limit 1)${whereAnd(model, input)} returning *`
          const { rows } = await run(model, query)
          if (rows[0]) return asRow<T>(fromRow(schema, model, rows[0]))
          // Nothing deleted: either nothing matches, or a concurrent consumer won the row we picked.
          const { rows: left } = await run(model, sql<RawRow>`select ${id(model)} from ${table(model)}${where(model, input)} limit 1`)
          if (!left[0]) return null
          continue
        }
        const { rows } = await run(model, sql<RawRow>`select * from ${table(model)}${where(model, input)} order by ${id(model)} limit 1`)
        const candidate = rows[0]
        if (!candidate) return null
        const result = await run(model, sql<RawRow>`delete from ${table(model)} where ${id(model)} = ${candidate[idName(model)]}${whereAnd(model, input)}`)
        // Only the caller whose own DELETE removed the row wins it.
        if (result.numAffectedRows === 1n) return asRow<T>(fromRow(schema, model, candidate))
      }
      return null
    },

    async lock<T extends Row = Row>({ model, where: input }: { model: string; where: WhereInput }): Promise<T | null> {
      // SQLite has no FOR UPDATE and needs none: Kysely runs its transactions one at a time on one connection.
      const locking = dialect === 'sqlite' ? sql`` : sql` for update`
      const { rows } = await run(model, sql<RawRow>`select * from ${table(model)}${where(model, input)} order by ${id(model)} limit 1${locking}`)
      return rows[0] ? asRow<T>(fromRow(schema, model, rows[0])) : null
    },

    async transaction<R>(fn: (tx: Adapter) => Promise<R>): Promise<R> {
      // A nested call joins the outer transaction: Kysely has one connection per transaction.
      if (db.isTransaction) return fn(adapter)
      try {
        return await transact((trx) => fn(bind(trx, shared)))
      } catch (error) {
        throw toDatabaseError(error, dialect)
      }
    },

    async migrate(options) {
      return migrateSchema(db, schema, dialect, { dryRun: options?.dryRun === true })
    },

    async close() {
      if (!db.isTransaction) await shared.close()
    },
  }

  function whereAnd(model: string, input: WhereInput | undefined): RawBuilder<unknown> {
    const clause = whereSql({ schema, model, dialect }, input)
    return clause === undefined ? sql`` : sql` and ${clause}`
  }

  return adapter
}
