/**
 * @module
 * The `Adapter` contract over the application's own Drizzle database and
 * tables (docs/adapters.md#using-drizzle). Queries are built with Drizzle's
 * query builder on the tables the application passes, so Drizzle's column
 * mappings convert the values and the application's own queries and
 * Gatehouse's read and write the same rows.
 *
 * Atomicity (docs/adapters.md#consume, #lock): `consume` deletes with
 * `DELETE … RETURNING` on PostgreSQL and SQLite and reports a winner only
 * when its own delete removed the row; on MySQL it locks the row
 * (`SELECT … FOR UPDATE`) and deletes it in one transaction. `lock` is
 * `SELECT … FOR UPDATE` on PostgreSQL and MySQL, whose transactions run at
 * READ COMMITTED; SQLite transactions run one at a time (queue.ts).
 *
 * Lock waits are bounded (docs/adapters.md#transactions): on PostgreSQL each
 * Gatehouse transaction sets `lock_timeout`, and a write outside one runs in
 * a transaction of its own to get it; on MySQL each Gatehouse transaction
 * sets `innodb_lock_wait_timeout` and restores the session's own value.
 */
import {
  createQueue,
  lockTimeoutMillis,
  noQueue,
  resolveJoins,
  withDefaults,
  type Adapter,
  type AdapterFactory,
  type Joins,
  type Queue,
  type Row,
  type Schema,
  type SortBy,
  type SqlDialect,
  type WhereInput,
} from '@gatehouse/core'
import { aliasedTable, and, asc, count, desc, eq, inArray, sql, type Column, type Placeholder, type SQL, type Table } from 'drizzle-orm'
import { listenForClientErrors } from './client-errors.js'
import { databaseError } from './errors.js'
import { withLockTimeout } from './lock-timeout.js'
import { affectedRows, detectDriver, DIALECTS, looseDatabase, supportsReturning, type Driver, type DrizzleDatabase, type LooseDatabase, type Provider } from './provider.js'
import { sqliteTransaction } from './sqlite-transaction.js'
import { bindTables, fieldOf, modelOf, type BoundModel } from './tables.js'
import { readRow, writeValues } from './values.js'
import { createStatementCache, runPrepared, type StatementCache } from './statements.js'
import { placeholders, whereShape, whereSql } from './where.js'

export interface DrizzleAdapterOptions {
  /**
   * The database `db` runs on: `pg` (node-postgres or postgres-js), `mysql`
   * (mysql2, MySQL or MariaDB) or `sqlite` (better-sqlite3 or libsql). The
   * driver itself is read from `db`.
   */
  readonly provider: Provider
  /**
   * The Drizzle tables keyed by model name, columns keyed by field name: the
   * module `gatehouse generate --format drizzle` writes, imported as a namespace.
   */
  readonly schema: Readonly<Record<string, unknown>>
  /**
   * How long a Gatehouse statement waits for a row lock, in milliseconds,
   * before it fails with a `TRANSIENT` DatabaseError (503 with Retry-After);
   * `0` waits as long as the server's own setting. Defaults to 10 000:
   * Gatehouse holds its own row locks for a few statements, so a wait that
   * long means a lock held elsewhere, such as your own open transaction
   * (docs/adapters.md#transactions). Ignored on SQLite.
   */
  readonly lockTimeout?: number | undefined
}

/**
 * The contract lets callers name the row type they expect (`findOne<User>`);
 * the adapter cannot check that type, only hand the row on under it.
 */
function asRow<T extends Row>(row: Row): T {
  return row as T
}

/** How often `consume` tries again when a concurrent caller took the row it picked and others still match. */
const CONSUME_ATTEMPTS = 5

/** "No limit", for an offset without a limit: SQLite and MySQL accept OFFSET only after a LIMIT (and Drizzle drops SQLite's -1). */
const NO_LIMIT: Readonly<Record<Provider, number | undefined>> = { pg: undefined, mysql: Number.MAX_SAFE_INTEGER, sqlite: Number.MAX_SAFE_INTEGER }

/**
 * Binds the application's Drizzle database and tables to Gatehouse's schema.
 * The connection stays the application's: `auth.close()` leaves it open.
 *
 * @example
 * import { drizzle } from 'drizzle-orm/node-postgres'
 * import { drizzleAdapter } from '@gatehouse/drizzle'
 * import * as schema from './auth-schema.js' // gatehouse generate --format drizzle --dialect postgres
 *
 * const db = drizzle(process.env.DATABASE_URL)
 * export const auth = createAuth({ database: drizzleAdapter(db, { provider: 'pg', schema }) })
 */
export function drizzleAdapter(db: DrizzleDatabase, options: DrizzleAdapterOptions): AdapterFactory {
  const factory: AdapterFactory = ({ schema }) => createDrizzleAdapter(db, options, schema)
  // Named before any table is bound: `gatehouse generate --format drizzle` defaults --dialect to it (docs/adapters.md#set-up).
  return Object.assign(factory, { dialect: Object.hasOwn(DIALECTS, options.provider) ? DIALECTS[options.provider] : undefined })
}

/**
 * The adapter itself, for callers that already hold the merged schema.
 *
 * @example
 * const adapter = createDrizzleAdapter(db, { provider: 'sqlite', schema: tables }, conformanceSchema)
 */
export function createDrizzleAdapter(db: DrizzleDatabase, options: DrizzleAdapterOptions, schema: Schema): Adapter {
  const { provider } = options
  if (!Object.hasOwn(DIALECTS, provider)) throw new TypeError(`drizzleAdapter: provider must be 'pg', 'mysql' or 'sqlite', not ${JSON.stringify(provider)}`)
  const driver = detectDriver(db, provider)
  listenForClientErrors(driver, db)
  return bind(
    {
      schema,
      provider,
      driver,
      lockTimeout: provider === 'sqlite' ? 0 : lockTimeoutMillis(options.lockTimeout, 'drizzleAdapter'),
      dialect: DIALECTS[provider],
      models: bindTables(schema, options.schema),
      queue: provider === 'sqlite' ? createQueue() : noQueue,
      aliases: new Map(),
      statements: createStatementCache(),
    },
    looseDatabase(db),
    false,
  )
}

/** What `findMany` takes (`findOne` is the same with `limit: 1`). */
type FindManyArgs = Parameters<Adapter['findMany']>[0]

interface Shared {
  readonly schema: Schema
  readonly provider: Provider
  readonly driver: Driver
  /** Milliseconds a statement waits for a row lock; 0 leaves the server's setting. */
  readonly lockTimeout: number
  readonly dialect: SqlDialect
  readonly models: ReadonlyMap<string, BoundModel>
  readonly queue: Queue
  readonly statements: StatementCache
  /** Aliased tables for joins by model and position: Drizzle's aliases are proxies, made once rather than per read. */
  readonly aliases: Map<string, JoinedTable>
}

interface JoinedTable {
  readonly target: BoundModel
  readonly table: Table
  readonly selection: Readonly<Record<string, Column>>
}

/** The joined model's table under the alias `t<position + 1>`, and the selection reading its fields under it. */
function joinedTable(shared: Shared, model: string, position: number): JoinedTable {
  const key = `${position}:${model}`
  let joined = shared.aliases.get(key)
  if (!joined) {
    const target = modelOf(shared.models, model)
    const table = aliasedTable(target.table, `t${position + 1}`)
    joined = { target, table, selection: Object.fromEntries(target.fields.map(({ field, key }) => [field, column(table, key)])) }
    shared.aliases.set(key, joined)
  }
  return joined
}

function bind(shared: Shared, db: LooseDatabase, inTransaction: boolean): Adapter {
  const { schema, provider, driver, dialect, models } = shared
  const returning = supportsReturning(provider)

  /** Runs one statement; outside a transaction on SQLite it waits for an open transaction to end. */
  async function run<T>(model: string, statement: () => PromiseLike<T>): Promise<T> {
    try {
      return await (inTransaction ? statement() : shared.queue.run(async () => statement()))
    } catch (error) {
      throw databaseError(error, dialect, model)
    }
  }

  async function rows(model: string, statement: () => PromiseLike<unknown>): Promise<Record<string, unknown>[]> {
    return records(await run(model, statement))
  }

  const where = (model: BoundModel, input: WhereInput | undefined): SQL | undefined => whereSql({ schema, provider }, model, input)

  /** `select <fields> from <table> where … order by id limit 1`, on `q` (the database or a transaction). */
  const first = (q: LooseDatabase, model: BoundModel, condition: SQL | undefined) =>
    q.select(model.selection).from(model.table).where(condition).orderBy(asc(model.id)).limit(1)

  /** Ids of the first matching row, as a subquery for `id in (…)`. */
  const firstId = (q: LooseDatabase, model: BoundModel, condition: SQL | undefined) => q.select({ id: model.id }).from(model.table).where(condition).orderBy(asc(model.id)).limit(1)

  /** Runs `work` in a transaction of its own, or in the one already open. */
  async function transact<R>(work: (q: LooseDatabase) => Promise<R>, model?: string): Promise<R> {
    if (inTransaction) return work(db)
    try {
      if (provider !== 'sqlite') {
        // InnoDB defaults to REPEATABLE READ, whose snapshot would hide what the previous holder of a `lock` committed.
        const config = provider === 'mysql' ? { isolationLevel: 'read committed' } : undefined
        return await db.transaction((tx) => withLockTimeout(provider, shared.lockTimeout, tx, work), config)
      }
      // libsql's transactions may await; better-sqlite3's cannot, so the adapter opens its own there.
      return await shared.queue.run(() => (driver === 'libsql' ? db.transaction(work) : sqliteTransaction(db, work)))
    } catch (error) {
      throw databaseError(error, dialect, model)
    }
  }

  /**
   * Runs one write. On PostgreSQL, with a lock timeout, outside a
   * transaction it gets one of its own: `lock_timeout` is set only with
   * `SET LOCAL`, which leaves the application's sessions on a shared pool as
   * they were. Elsewhere it runs as it is.
   */
  async function write<T>(model: string, statement: (q: LooseDatabase) => PromiseLike<T>): Promise<T> {
    if (inTransaction || provider !== 'pg' || shared.lockTimeout === 0) return run(model, () => statement(db))
    return transact(async (q) => statement(q), model)
  }

  async function selectById(model: BoundModel, id: unknown): Promise<Row | null> {
    const [row] = await rows(model.name, () => db.select(model.selection).from(model.table).where(eq(model.id, id)).limit(1))
    return row ? readRow(model, row) : null
  }

  async function select(args: FindManyArgs): Promise<Row[]> {
    const model = modelOf(models, args.model)
    const joins = resolveJoins(schema, args.model, args.join).map((join, index) => ({ ...join, ...joinedTable(shared, join.model, index) }))
    const sorts = args.sortBy === undefined ? [] : Array.isArray(args.sortBy) ? (args.sortBy as readonly SortBy[]) : [args.sortBy as SortBy]
    const order = sorts.map(({ field, direction }) => (direction === 'desc' ? desc : asc)(fieldOf(model, field).column))
    for (const n of [args.limit, args.offset]) {
      if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw new TypeError(`Invalid limit or offset ${n}`)
    }
    const selection: Record<string, unknown> = { row: model.selection }
    for (const [index, join] of joins.entries()) selection[`j${index}`] = join.selection
    const limit = args.limit ?? (args.offset ? NO_LIMIT[provider] : undefined)
    const offset = args.offset ? args.offset : undefined
    /** The read; `page` gives the limit and offset, as values or as placeholders of a prepared statement. */
    const build = (condition: SQL | undefined, page: { limit?: number | Placeholder; offset?: number | Placeholder }) => {
      let query = db.select(joins.length === 0 ? model.selection : selection).from(model.table)
      for (const join of joins) query = query.leftJoin(join.table, eq(fieldOf(model, join.field).column, column(join.table, fieldOf(join.target, join.references).key)))
      query = query.where(condition)
      if (order.length > 0) query = query.orderBy(...order)
      if (page.limit !== undefined) query = query.limit(page.limit)
      if (page.offset !== undefined) query = query.offset(page.offset)
      return query
    }
    let found: Record<string, unknown>[]
    if (inTransaction) {
      const condition = where(model, args.where)
      found = await rows(args.model, () => build(condition, { limit, offset }))
    } else {
      const values: unknown[] = []
      const condition = whereSql({ schema, provider }, model, args.where, placeholders(values))
      const key = [
        'select',
        JSON.stringify(args.model),
        joins.map((join) => JSON.stringify([join.alias, join.model, join.field, join.references])).join(','),
        whereShape(args.where),
        sorts.map(({ field, direction }) => `${JSON.stringify(field)} ${direction}`).join(','),
        // Whether there is a limit and an offset shapes the SQL; their values are placeholders (statements.ts).
        limit === undefined ? '' : 'limit',
        offset === undefined ? '' : 'offset',
      ].join('|')
      const page = { limit: limit === undefined ? undefined : sql.placeholder('limit'), offset: offset === undefined ? undefined : sql.placeholder('offset') }
      const statement = shared.statements.get(key, () => build(condition, page))
      found = await rows(args.model, async () => runPrepared(provider, statement, values, { limit, offset }))
    }
    if (joins.length === 0) return found.map((raw) => readRow(model, raw))
    return found.map((raw) => {
      const row = readRow(model, record(raw.row))
      for (const [index, join] of joins.entries()) {
        const joined = raw[`j${index}`]
        row[join.alias] = joined ? readRow(join.target, record(joined)) : null
      }
      return row
    })
  }

  const adapter: Adapter = {
    id: `drizzle-${dialect}`,
    capabilities: { transactions: true, migrations: false },
    schema,

    async create<T extends Row = Row>({ model: name, data }: { model: string; data: Row }): Promise<T> {
      const model = modelOf(models, name)
      const filled = withDefaults(schema, name, data)
      if (typeof filled.id !== 'string' || filled.id === '') throw new TypeError(`create on "${name}" needs a string id`)
      const values = writeValues(model, filled)
      if (returning) {
        const [row] = records(await write(name, (q) => q.insert(model.table).values(values).returning(model.selection)))
        if (!row) throw new Error(`Insert into "${name}" returned no row`)
        return asRow<T>(readRow(model, row))
      }
      await write(name, (q) => q.insert(model.table).values(values))
      const row = await selectById(model, filled.id)
      if (!row) throw new Error(`Inserted row of "${name}" could not be read back`)
      return asRow<T>(row)
    },

    async findOne<T extends Row = Row>(args: { model: string; where: WhereInput; join?: Joins }): Promise<T | null> {
      const [row] = await select({ ...args, limit: 1 })
      return row ? asRow<T>(row) : null
    },

    async findMany<T extends Row = Row>(args: FindManyArgs): Promise<T[]> {
      return (await select(args)).map((row) => asRow<T>(row))
    },

    async count({ model: name, where: input }) {
      const model = modelOf(models, name)
      const build = (condition: SQL | undefined) => db.select({ total: count() }).from(model.table).where(condition)
      let found: Record<string, unknown>[]
      if (inTransaction) {
        const condition = where(model, input)
        found = await rows(name, () => build(condition))
      } else {
        const values: unknown[] = []
        const condition = whereSql({ schema, provider }, model, input, placeholders(values))
        const statement = shared.statements.get(`count|${JSON.stringify(name)}|${whereShape(input)}`, () => build(condition))
        found = await rows(name, async () => runPrepared(provider, statement, values))
      }
      return Number(found[0]?.total ?? 0)
    },

    async update<T extends Row = Row>({ model: name, where: input, update }: { model: string; where: WhereInput; update: Row }): Promise<T | null> {
      const model = modelOf(models, name)
      const values = writeValues(model, update)
      const condition = where(model, input)
      if (Object.keys(values).length === 0) {
        const [row] = await rows(name, () => first(db, model, condition))
        return row ? asRow<T>(readRow(model, row)) : null
      }
      if (returning) {
        // The subquery picks the one row; repeating the clause outside keeps a row that stopped matching untouched.
        const [row] = records(await write(name, (q) => q.update(model.table).set(values).where(and(inArray(model.id, firstId(q, model, condition)), condition)).returning(model.selection)))
        return row ? asRow<T>(readRow(model, row)) : null
      }
      // MySQL has neither RETURNING nor LIMIT in an IN subquery: lock the row, update it by id, read it back.
      const row = await transact(async (q) => {
        const [target] = (await q.select({ id: model.id }).from(model.table).where(condition).orderBy(asc(model.id)).limit(1).for('update')) as Row[]
        if (!target) return null
        await q.update(model.table).set(values).where(eq(model.id, target.id))
        const [updated] = (await q.select(model.selection).from(model.table).where(eq(model.id, typeof update.id === 'string' ? update.id : target.id)).limit(1)) as Record<string, unknown>[]
        return updated ? readRow(model, updated) : null
      }, name)
      return row ? asRow<T>(row) : null
    },

    async updateMany({ model: name, where: input, update }) {
      const model = modelOf(models, name)
      const values = writeValues(model, update)
      if (Object.keys(values).length === 0) return adapter.count({ model: name, where: input })
      const condition = where(model, input)
      return affectedRows(driver, await write(name, (q) => q.update(model.table).set(values).where(condition)))
    },

    async delete({ model: name, where: input }) {
      const model = modelOf(models, name)
      const condition = where(model, input)
      await write(name, (q) => q.delete(model.table).where(condition))
    },

    async deleteMany({ model: name, where: input }) {
      const model = modelOf(models, name)
      const condition = where(model, input)
      return affectedRows(driver, await write(name, (q) => q.delete(model.table).where(condition)))
    },

    async consume<T extends Row = Row>({ model: name, where: input }: { model: string; where: WhereInput }): Promise<T | null> {
      const model = modelOf(models, name)
      const condition = where(model, input)
      if (!returning) return consumeLocked<T>(model, condition)
      for (let attempt = 0; attempt < CONSUME_ATTEMPTS; attempt++) {
        const [row] = records(await write(name, (q) => q.delete(model.table).where(and(inArray(model.id, firstId(q, model, condition)), condition)).returning(model.selection)))
        if (row) return asRow<T>(readRow(model, row))
        // Nothing deleted: either nothing matches, or a concurrent consumer won the row we picked.
        const [left] = await rows(name, () => db.select({ id: model.id }).from(model.table).where(condition).limit(1))
        if (!left) return null
      }
      return null
    },

    async lock<T extends Row = Row>({ model: name, where: input }: { model: string; where: WhereInput }): Promise<T | null> {
      const model = modelOf(models, name)
      const condition = where(model, input)
      // SQLite has no FOR UPDATE and needs none: its transactions run one at a time (queue.ts). Outside a transaction it is a plain read.
      const locking = inTransaction && provider !== 'sqlite'
      const [row] = await rows(name, () => (locking ? first(db, model, condition).for('update') : first(db, model, condition)))
      return row ? asRow<T>(readRow(model, row)) : null
    },

    async transaction<R>(fn: (tx: Adapter) => Promise<R>): Promise<R> {
      // A nested call joins the outer transaction.
      if (inTransaction) return fn(adapter)
      return transact((tx) => fn(bind(shared, tx, true)))
    },
  }

  /**
   * MySQL's `consume`: lock the first matching row, delete it, in one
   * transaction. A concurrent consumer waits on the lock, then reads past
   * the deleted row. InnoDB may pick a waiter as a deadlock victim; it tries again.
   */
  async function consumeLocked<T extends Row>(model: BoundModel, condition: SQL | undefined): Promise<T | null> {
    const take = async (q: LooseDatabase): Promise<Row | null> => {
      const [row] = (await first(q, model, condition).for('update')) as Record<string, unknown>[]
      if (!row) return null
      await q.delete(model.table).where(eq(model.id, row.id))
      return readRow(model, row)
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await transact(take, model.name)
        return row ? asRow<T>(row) : null
      } catch (error) {
        const mapped = databaseError(error, dialect, model.name)
        if (inTransaction || attempt >= CONSUME_ATTEMPTS || Reflect.get(Object(mapped), 'code') !== 'DEADLOCK') throw mapped
      }
    }
  }

  return adapter
}

/** A column of an aliased table, found under its key as on the table itself. */
function column(table: Table, field: string): Column {
  return Reflect.get(table, field) as Column
}

/** The rows of a statement's result: every driver returns them as an array. */
function records(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : []
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}
