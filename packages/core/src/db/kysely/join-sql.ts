/**
 * @module
 * The SELECT behind `findOne`/`findMany` with `join`: the base table and one
 * LEFT JOIN per alias, in a single statement, so get-session reads a session
 * and its user in one round trip (session.userId → user.id).
 *
 * Every table gets a positional alias (`t0` for the base, `t1`… for joins),
 * which lets one model be joined twice, and every selected column gets a
 * positional alias (`c0`, `c1`…). Positional names cannot collide with any
 * column the schema declares, and stay far below PostgreSQL's 63-character
 * identifier limit, beyond which `"<alias>__<column>"` would be silently
 * truncated into clashing names. `read` maps them back to field names and
 * runs the same value conversion as every other row (rows.ts).
 */
import { sql, type RawBuilder } from 'kysely'
import type { Row } from '../adapter.js'
import type { ResolvedJoin } from '../join.js'
import { columnName, tableName, type Schema } from '../schema.js'
import { fieldReaders, type FieldReader } from './rows.js'
import { fromColumnValue } from './values.js'

type RawRow = Record<string, unknown>

/** The table alias of the base model: where and order-by columns are qualified with it. */
export const BASE_ALIAS = 't0'

export interface JoinedSelect {
  /** `select … from <base> as "t0" left join …`: append where, order by and limit to it. */
  readonly select: RawBuilder<unknown>
  /** The base row, with each join's row (or null) under its alias. */
  read(raw: RawRow): Row
}

/** One table in the statement: which columns were selected under which alias. */
interface Source {
  readonly tableAlias: string
  /** The model's fields, each with the select alias its column comes back under. */
  readonly columns: readonly (FieldReader & { readonly alias: string })[]
}

/** The row of one source, from the aliased columns of the statement's row. */
function readSource(source: Source, raw: RawRow): Row {
  const row: Row = {}
  for (const { field, alias, definition } of source.columns) row[field] = fromColumnValue(definition, raw[alias])
  return row
}

/**
 * Statements by schema, then by model and joins. The SELECT of a given join
 * never changes, and building it (a raw fragment per column) cost as much as
 * running it; Kysely's builders are immutable, so one can be shared. Joins
 * come from code, not from requests, so the bound is only a safeguard.
 */
const statements = new WeakMap<Schema, Map<string, JoinedSelect>>()
const STATEMENTS_PER_SCHEMA = 256

/** What the statement and its `read` depend on, as a map key. */
export function joinsKey(model: string, joins: readonly ResolvedJoin[]): string {
  return JSON.stringify([model, ...joins.map((join) => [join.alias, join.model, join.field, join.references])])
}

/**
 * Builds the joined SELECT for `model`; `joins` come from `resolveJoins`.
 *
 * @example
 * const { select, read } = joinedSelect(schema, 'session', [{ alias: 'user', model: 'user', field: 'userId', references: 'id' }])
 * // select "t0"."id" as "c0", … "t1"."id" as "c8", … from "session" as "t0" left join "user" as "t1" on "t1"."id" = "t0"."userId"
 * const { rows } = await sql`${select} where ${sql.id(BASE_ALIAS, 'token')} = ${hash} limit 1`.execute(db)
 * const row = rows[0] && read(rows[0]) // { id, userId, …, user: { id, name, … } | null }
 */
export function joinedSelect(schema: Schema, model: string, joins: readonly ResolvedJoin[]): JoinedSelect {
  let bySchema = statements.get(schema)
  if (!bySchema) {
    bySchema = new Map()
    statements.set(schema, bySchema)
  }
  const key = joinsKey(model, joins)
  let statement = bySchema.get(key)
  if (!statement) {
    if (bySchema.size >= STATEMENTS_PER_SCHEMA) bySchema.clear()
    statement = buildJoinedSelect(schema, model, joins)
    bySchema.set(key, statement)
  }
  return statement
}

function buildJoinedSelect(schema: Schema, model: string, joins: readonly ResolvedJoin[]): JoinedSelect {
  let next = 0
  const source = (sourceModel: string, tableAlias: string): Source => ({
    tableAlias,
    columns: fieldReaders(schema, sourceModel).map((reader) => ({ ...reader, alias: `c${String(next++)}` })),
  })
  const base = source(model, BASE_ALIAS)
  const joined = joins.map((join, index) => {
    const joinedSource = source(join.model, `t${String(index + 1)}`)
    const id = joinedSource.columns.find((column) => column.field === 'id')
    if (!id) throw new Error(`Model "${join.model}" has no id column`)
    return { join, source: joinedSource, idAlias: id.alias }
  })

  const selectList = [base, ...joined.map((entry) => entry.source)].flatMap(({ tableAlias, columns }) =>
    columns.map(({ column, alias }) => sql`${sql.id(tableAlias, column)} as ${sql.id(alias)}`),
  )
  const leftJoins = joined.map(({ join, source: { tableAlias } }) => {
    const remote = sql.id(tableAlias, columnName(schema, join.model, join.references))
    const local = sql.id(BASE_ALIAS, columnName(schema, model, join.field))
    return sql` left join ${sql.id(tableName(schema, join.model))} as ${sql.id(tableAlias)} on ${remote} = ${local}`
  })
  const select = sql`select ${sql.join(selectList)} from ${sql.id(tableName(schema, model))} as ${sql.id(BASE_ALIAS)}${sql.join(leftJoins, sql``)}`

  return {
    select,
    read(raw) {
      const row = readSource(base, raw)
      for (const { join, source: joinedSource, idAlias } of joined) {
        const id = raw[idAlias]
        // The primary key is never null in a stored row, so a null id means the LEFT JOIN found nothing.
        row[join.alias] = id === null || id === undefined ? null : readSource(joinedSource, raw)
      }
      return row
    },
  }
}
