/**
 * @module
 * The adapter contract: the handful of operations Gatehouse needs from a
 * database, plus `transaction(fn)`. An adapter is bound to a `Schema` and
 * speaks in model and field names; it maps them to tables and columns and
 * converts values (dates, booleans, JSON) both ways. Adapter authors check
 * their backend with `runAdapterConformance` from `@gatehouse/core/testing`.
 */
import type { SqlDialect } from './kysely/dialect.js'
import type { Schema } from './schema.js'

export type Value = string | number | boolean | Date | null | Readonly<Record<string, unknown>> | readonly unknown[]

export type Operator =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'contains'
  | 'starts_with'
  | 'ends_with'

export interface Condition {
  readonly field: string
  /** Defaults to `eq`. `in` takes an array; `contains`, `starts_with`, `ends_with` take a string. */
  readonly operator?: Operator
  readonly value: Value | readonly (string | number)[]
  /**
   * Compare strings case-insensitively (`eq`, `ne`, `in`, `contains`, `starts_with`, `ends_with`).
   * Without it every backend compares case-sensitively.
   */
  readonly insensitive?: boolean
}

export type Where = Condition | { readonly and: readonly Where[] } | { readonly or: readonly Where[] }

/** A list of clauses means all of them (AND). */
export type WhereInput = Where | readonly Where[]

export interface SortBy {
  readonly field: string
  readonly direction: 'asc' | 'desc'
}

export type Row = Record<string, unknown>

/**
 * A many-to-one join: the row of `model` whose `on.references` field equals
 * the base row's `on.field`. `references` must be `id` or a unique field, so
 * at most one row matches.
 *
 * @example
 * const joinUser: JoinSpec = { model: 'user', on: { field: 'userId', references: 'id' } }
 */
export interface JoinSpec {
  readonly model: string
  readonly on: {
    /** A field of the base model (the one `findOne`/`findMany` reads). */
    readonly field: string
    /** A field of the joined model: `id` or a unique field. */
    readonly references: string
  }
}

/**
 * Joins by alias. Each returned row carries the joined row under its alias,
 * or `null` when no row matches (LEFT JOIN semantics).
 */
export type Joins = Readonly<Record<string, JoinSpec>>

export interface AdapterCapabilities {
  /** Whether `transaction(fn)` gives real isolation and rollback. */
  readonly transactions: boolean
  /** Whether the schema lives in a store that needs `migrate` (false for the in-memory adapter). */
  readonly migrations: boolean
}

export interface Adapter {
  readonly id: string
  readonly capabilities: AdapterCapabilities
  readonly schema: Schema

  /** Inserts one row. `data` carries every field, `id` included; returns the stored row. */
  create<T extends Row = Row>(args: { model: string; data: Row }): Promise<T>
  /**
   * The first matching row, or null. With `join`, every alias holds the
   * joined row (keyed by field name, values converted as in any row) or
   * `null`; SQL adapters answer in one statement. `where` names fields of
   * `model` only. An alias equal to a field of `model`, an unknown model or
   * field, or a `references` that is neither `id` nor unique is an error.
   *
   * @example
   * const found = await adapter.findOne<Session & { user: User | null }>({
   *   model: 'session',
   *   where: { field: 'token', value: tokenHash },
   *   join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
   * })
   */
  findOne<T extends Row = Row>(args: { model: string; where: WhereInput; join?: Joins }): Promise<T | null>
  /** Matching rows; `join` as in `findOne`. `where` and `sortBy` name fields of `model` only. */
  findMany<T extends Row = Row>(args: {
    model: string
    where?: WhereInput
    sortBy?: SortBy | readonly SortBy[]
    limit?: number
    offset?: number
    join?: Joins
  }): Promise<T[]>
  count(args: { model: string; where?: WhereInput }): Promise<number>
  /** Updates the one row the clause matches (the first by id if several do); returns it updated, or null. */
  update<T extends Row = Row>(args: { model: string; where: WhereInput; update: Row }): Promise<T | null>
  /** Updates every matching row; returns how many matched. */
  updateMany(args: { model: string; where: WhereInput; update: Row }): Promise<number>
  delete(args: { model: string; where: WhereInput }): Promise<void>
  /** Deletes every matching row; returns how many were deleted. */
  deleteMany(args: { model: string; where: WhereInput }): Promise<number>
  /**
   * Deletes one matching row and returns it. Under concurrency exactly one
   * caller gets a given row; the others get null. Single-use tokens rely on it.
   */
  consume<T extends Row = Row>(args: { model: string; where: WhereInput }): Promise<T | null>
  /**
   * Inside `transaction(fn)`: the first matching row (by id), locked until the
   * transaction ends, so another transaction locking the same row waits for
   * this one to commit or roll back. Check-then-write sequences use it on a
   * parent row: lock the organization, count its members, add one — two
   * concurrent requests can then never both pass a limit. Call it before the
   * reads it guards. SQL adapters answer `SELECT … FOR UPDATE` where the
   * backend has it; backends whose transactions never interleave (SQLite
   * through one connection, the memory adapter) may answer a plain read.
   * Outside a transaction it is a plain read.
   *
   * @example
   * await db.transaction(async (tx) => {
   *   await tx.lock({ model: 'organization', where: { field: 'id', value: organizationId } })
   *   if ((await tx.count({ model: 'member', where: { field: 'organizationId', value: organizationId } })) >= limit) throw tooMany
   *   await tx.create({ model: 'member', data: member })
   * })
   */
  lock<T extends Row = Row>(args: { model: string; where: WhereInput }): Promise<T | null>
  /**
   * Runs `fn` in one transaction: every write through `tx` commits together or
   * not at all. A nested call joins the outer transaction. Reads inside see
   * rows committed before each statement (READ COMMITTED or stronger), so a
   * read after `lock` sees what the previous holder of the lock wrote.
   */
  transaction<R>(fn: (tx: Adapter) => Promise<R>): Promise<R>

  /** Schema migration, for adapters whose `capabilities.migrations` is true. */
  migrate?(options?: { dryRun?: boolean }): Promise<MigrationResult>
  /** Releases connections the adapter opened itself. */
  close?(): Promise<void>
}

export interface MigrationResult {
  /** The SQL statements, in order: what `gatehouse generate` prints, what `migrate` ran. */
  readonly statements: readonly string[]
  readonly applied: boolean
}

/**
 * What `createAuth({ database })` takes: binds an adapter to the merged
 * schema. `dialect`, when the factory knows it before connecting, is the SQL
 * its adapter will speak: `gatehouse generate --format drizzle|prisma`
 * defaults `--dialect` to it without opening the database
 * (docs/adapters.md#the-schema-module).
 */
export type AdapterFactory = ((options: { schema: Schema }) => Adapter | Promise<Adapter>) & { readonly dialect?: SqlDialect | undefined }

/**
 * An adapter factory that names its dialect, for factories of SQL adapters.
 *
 * @example
 * export const myAdapter = (url: string) => withDialect('postgres', ({ schema }) => createMyAdapter(url, schema))
 */
export function withDialect(dialect: SqlDialect, create: (options: { schema: Schema }) => Adapter | Promise<Adapter>): AdapterFactory {
  return Object.assign(create, { dialect })
}

/**
 * `DEADLOCK`: the database rolled the transaction back to break a deadlock or
 * keep it serializable; running it again usually succeeds. `TRANSIENT`: the
 * database could not serve the statement now (a lock wait timed out, the
 * connection dropped, the server is starting or shutting down); the same
 * work may succeed later. Neither says anything about the data.
 */
export type DatabaseErrorCode = 'UNIQUE_VIOLATION' | 'FOREIGN_KEY_VIOLATION' | 'NOT_NULL_VIOLATION' | 'DEADLOCK' | 'TRANSIENT' | 'UNKNOWN'

/**
 * What adapters throw for constraint violations, so core can answer
 * "User already exists" without knowing the driver's error shapes.
 */
export class DatabaseError extends Error {
  override readonly name = 'DatabaseError'
  constructor(
    readonly code: DatabaseErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof DatabaseError && error.code === 'UNIQUE_VIOLATION'
}

/**
 * Normalises the `where` input to one clause, or undefined for none.
 *
 * @example
 * toWhere([{ field: 'a', value: 1 }, { field: 'b', value: 2 }]) // { and: [{ field: 'a', value: 1 }, { field: 'b', value: 2 }] }
 */
export function toWhere(input: WhereInput | undefined): Where | undefined {
  if (input === undefined) return undefined
  if (Array.isArray(input)) {
    const list = input as readonly Where[]
    if (list.length === 0) return undefined
    if (list.length === 1) return list[0]
    return { and: list }
  }
  return input as Where
}
