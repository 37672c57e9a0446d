/**
 * @module
 * The reads of the Kysely adapter (`findOne`, `findMany`, `count`) as
 * compiled statements from the statement cache: each call works out the
 * statement's shape key and its bound values, and the SQL text is built and
 * compiled only the first time a shape is seen. get-session runs one of
 * these per request, so this is the adapter's hot path.
 *
 * A shape key names everything the text depends on: the kind of read, the
 * model, the joins, the where shape with the qualifier its columns carry,
 * the sort and the page. Limit and offset are written into the text as
 * literals (MySQL does not take every placeholder there), so their values
 * are part of the key: each page size is one more entry in a bounded cache.
 */
import { sql, type CompiledQuery, type QueryExecutorProvider, type RawBuilder } from 'kysely'
import type { Row, SortBy, WhereInput } from '../adapter.js'
import type { ResolvedJoin } from '../join.js'
import { columnName, tableName, type Schema } from '../schema.js'
import type { SqlDialect } from './dialect.js'
import { BASE_ALIAS, joinedSelect, joinsKey } from './join-sql.js'
import { fromRow } from './rows.js'
import type { StatementCache } from './statement-cache.js'
import { whereShape, whereSql } from './where-sql.js'

type RawRow = Record<string, unknown>

export interface SelectContext {
  readonly schema: Schema
  readonly dialect: SqlDialect
  readonly cache: StatementCache
  /** Compiles on a miss: any Kysely instance of the adapter's dialect. */
  readonly compiler: QueryExecutorProvider
}

export interface SelectArgs {
  readonly model: string
  readonly joins: readonly ResolvedJoin[]
  readonly where?: WhereInput
  readonly sortBy?: SortBy | readonly SortBy[]
  readonly limit?: number
  readonly offset?: number
}

export interface SelectStatement {
  readonly query: CompiledQuery<RawRow>
  /** One result row as the adapter returns it: fields, converted values, joined rows under their aliases. */
  read(raw: RawRow): Row
}

function sortList(sortBy: SortBy | readonly SortBy[] | undefined): readonly SortBy[] {
  if (sortBy === undefined) return []
  return Array.isArray(sortBy) ? (sortBy as readonly SortBy[]) : [sortBy as SortBy]
}

function checkPage(limit: number | undefined, offset: number | undefined): void {
  for (const n of [limit, offset]) {
    if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw new TypeError(`Invalid limit or offset ${n}`)
  }
}

/**
 * `select … where … order by … limit …`, with joins when `args.joins` has any.
 *
 * @example
 * const { query, read } = selectStatement(context, { model: 'session', joins, where: { field: 'token', value: hash }, limit: 1 })
 * const { rows } = await db.executeQuery(query)
 * const row = rows[0] ? read(rows[0]) : null
 */
export function selectStatement(context: SelectContext, args: SelectArgs): SelectStatement {
  const { schema, dialect } = context
  const { model, joins, limit, offset } = args
  const qualifier = joins.length > 0 ? BASE_ALIAS : undefined
  // Every call is checked in full, hit or miss, in the order the builders check.
  const values: unknown[] = []
  const where = whereShape({ schema, model, dialect, qualifier }, args.where, values)
  const sorts = sortList(args.sortBy)
  for (const { field, direction } of sorts) {
    if (direction !== 'asc' && direction !== 'desc') throw new TypeError(`Invalid sort direction "${String(direction)}"`)
    columnName(schema, model, field)
  }
  checkPage(limit, offset)
  const sortKey = sorts.map(({ field, direction }) => `${JSON.stringify(field)} ${direction}`).join(',')
  const key = `select ${joinsKey(model, joins)} where ${where} order ${sortKey} page ${String(limit)} ${String(offset)}`

  const joined = joins.length > 0 ? joinedSelect(schema, model, joins) : undefined
  const build = (): RawBuilder<unknown> => {
    const clause = whereSql({ schema, model, dialect, qualifier }, args.where)
    const head = joined ? joined.select : sql`select * from ${sql.id(tableName(schema, model))}`
    return sql`${head}${clause === undefined ? sql`` : sql` where ${clause}`}${orderBy(schema, model, sorts, qualifier)}${page(dialect, limit, offset)}`
  }
  const query = context.cache.compile(key, values, build, context.compiler)
  return { query, read: joined ? joined.read : (raw) => fromRow(schema, model, raw) }
}

/**
 * `select count(*) as "total" from … where …`.
 *
 * @example
 * const { rows } = await db.executeQuery(countStatement(context, 'session', { field: 'userId', value: id }))
 */
export function countStatement(context: SelectContext, model: string, input: WhereInput | undefined): CompiledQuery<RawRow> {
  const { schema, dialect } = context
  const values: unknown[] = []
  const key = `count ${JSON.stringify(model)} where ${whereShape({ schema, model, dialect }, input, values)}`
  const build = (): RawBuilder<unknown> => {
    const clause = whereSql({ schema, model, dialect }, input)
    return sql`select count(*) as ${sql.id('total')} from ${sql.id(tableName(schema, model))}${clause === undefined ? sql`` : sql` where ${clause}`}`
  }
  return context.cache.compile(key, values, build, context.compiler)
}

function orderBy(schema: Schema, model: string, sorts: readonly SortBy[], qualifier: string | undefined): RawBuilder<unknown> {
  if (sorts.length === 0) return sql``
  const terms = sorts.map(({ field, direction }) => {
    const column = columnName(schema, model, field)
    return sql`${qualifier === undefined ? sql.id(column) : sql.id(qualifier, column)} ${sql.raw(direction)}`
  })
  return sql` order by ${sql.join(terms)}`
}

function page(dialect: SqlDialect, limit: number | undefined, offset: number | undefined): RawBuilder<unknown> {
  const skip = offset !== undefined && offset > 0 ? sql` offset ${sql.lit(offset)}` : sql``
  if (limit !== undefined) return sql` limit ${sql.lit(limit)}${skip}`
  if (offset === undefined || offset === 0) return sql``
  // SQLite and MySQL accept OFFSET only after a LIMIT: "no limit" is -1 on SQLite, the largest BIGINT UNSIGNED on MySQL.
  if (dialect === 'sqlite') return sql` limit -1${skip}`
  if (dialect === 'mysql') return sql` limit 18446744073709551615${skip}`
  return skip
}
