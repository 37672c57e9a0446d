/**
 * @module
 * Gatehouse `where` clauses as Drizzle SQL, with the semantics every adapter
 * shares (docs/adapters.md#where-clauses): `eq null` is `IS NULL`, `ne 'x'`
 * also matches nulls, `in []` and an empty `or` match nothing, strings
 * compare case-sensitively unless `insensitive`, and the value of
 * `contains`/`starts_with`/`ends_with` is literal text, never a pattern (a
 * search for "a_b" must not match "axb"). SQLite's LIKE ignores ASCII case,
 * so there the string operators use `instr`/`substr`. Clauses are checked
 * with core's `validateWhere` first, so a misspelt field fails loudly.
 */
import { toWhere, validateWhere, type Condition, type Schema, type Where, type WhereInput } from '@gatehouse/core'
import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type Column, type SQL } from 'drizzle-orm'
import type { Provider } from './provider.js'
import { fieldOf, type BoundModel } from './tables.js'
import { toColumnInput } from './values.js'

const alwaysTrue = sql`1 = 1`
const alwaysFalse = sql`1 = 0`

/**
 * LIKE's escape character. Not the backslash: a backslash literal is written
 * `'\\'` on MySQL and `'\'` under its `NO_BACKSLASH_ESCAPES` mode, where
 * `'\\'` is two characters and every LIKE query fails (docs/adapters.md#dialect-notes).
 * `'!'` reads the same in every mode of every server.
 */
const LIKE_ESCAPE = '!'

/** Escapes LIKE's wildcards (and the escape character) so the value is matched as written. */
function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char)
}

/**
 * How a condition's value enters the SQL: bound as it is (`eq(column, value)`
 * binds through the column's own mapping), or as a placeholder of a prepared
 * statement (statements.ts), whose value is then mapped here, in the same
 * order as the placeholders.
 */
interface Binding {
  /** A value compared with `column`, as the column takes it. */
  column(column: Column, value: unknown): unknown
  /** A plain text operand (a LIKE pattern, a `lower()` argument). */
  text(value: unknown): unknown
}

const inline: Binding = { column: (_column, value) => value, text: (value) => value }

/**
 * A binding that turns every value into the placeholder `p<n>` and appends
 * the value, mapped by its column, to `values`.
 *
 * @example
 * const values: unknown[] = []
 * whereSql(context, model, where, placeholders(values)) // "token" = ?  values: ['…']
 */
export function placeholders(values: unknown[]): Binding {
  const add = (value: unknown) => {
    values.push(value)
    return sql.placeholder(`p${values.length - 1}`)
  }
  return {
    column: (column, value) => add(value === null ? null : column.mapToDriverValue(value)),
    text: add,
  }
}

/**
 * The SQL for a where input, or undefined when it places no restriction.
 *
 * @example
 * whereSql({ schema, provider: 'pg' }, sessionModel, { field: 'token', value: hash }) // "session"."token" = $1
 */
export function whereSql(context: { schema: Schema; provider: Provider }, model: BoundModel, input: WhereInput | undefined, binding: Binding = inline): SQL | undefined {
  validateWhere(context.schema, model.name, input)
  const where = toWhere(input)
  return where === undefined ? undefined : clauseSql(context.provider, model, where, binding)
}

/**
 * What the SQL text of a where input depends on: the tree, each condition's
 * field, operator and case folding, whether its value is null, the length of
 * an `in` list rounded up to a power of two (`padded`). Two inputs of one
 * shape compile to one prepared statement.
 *
 * @example
 * whereShape({ field: 'token', value: 'a' }) === whereShape({ field: 'token', value: 'b' }) // true
 */
export function whereShape(input: WhereInput | undefined): string {
  const where = toWhere(input)
  return where === undefined ? '' : clauseShape(where)
}

function clauseShape(where: Where): string {
  if ('and' in where) return `and(${where.and.map(clauseShape).join(',')})`
  if ('or' in where) return `or(${where.or.map(clauseShape).join(',')})`
  const size = Array.isArray(where.value) ? String(padded(where.value).length) : where.value === null ? 'null' : 'v'
  return `${JSON.stringify(where.field)} ${where.operator ?? 'eq'}${where.insensitive === true ? ' i' : ''} ${size}`
}

function clauseSql(provider: Provider, model: BoundModel, where: Where, binding: Binding): SQL {
  if ('and' in where) return and(...where.and.map((part) => clauseSql(provider, model, part, binding))) ?? alwaysTrue
  if ('or' in where) return or(...where.or.map((part) => clauseSql(provider, model, part, binding))) ?? alwaysFalse
  return conditionSql(provider, model, where, binding)
}

function conditionSql(provider: Provider, model: BoundModel, condition: Condition, binding: Binding): SQL {
  const { definition, column } = fieldOf(model, condition.field)
  const value = condition.value
  const input = (raw: unknown) => binding.column(column, toColumnInput(definition, column, raw))
  // `insensitive` only means something for text; on other types it is ignored.
  if (condition.insensitive === true && definition.type === 'string') return foldedSql(provider, column, condition, binding)
  const operator = condition.operator ?? 'eq'
  switch (operator) {
    case 'eq':
      return value === null ? isNull(column) : eq(column, input(value))
    case 'ne':
      // `<>` alone would drop rows whose column is null, which `!==` keeps.
      return value === null ? isNotNull(column) : (or(ne(column, input(value)), isNull(column)) ?? alwaysFalse)
    case 'lt':
      return lt(column, input(value))
    case 'lte':
      return lte(column, input(value))
    case 'gt':
      return gt(column, input(value))
    case 'gte':
      return gte(column, input(value))
    case 'in':
      return listOf(value).length === 0 ? alwaysFalse : inArray(column, padded(listOf(value)).map(input))
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return textMatch(provider, operator, sql`${column}`, String(value), false, binding)
  }
}

/**
 * An `in` list padded to the next power of two by repeating its last value,
 * which matches the same rows: lists of 5 to 8 values share one SQL text, so
 * the prepared statements of `in` reads stay few (statements.ts).
 *
 * @example
 * padded(['a', 'b', 'c']) // ['a', 'b', 'c', 'c']
 */
export function padded(list: readonly unknown[]): readonly unknown[] {
  if (list.length === 0) return list
  let size = 1
  while (size < list.length) size *= 2
  return size === list.length ? list : [...list, ...Array.from({ length: size - list.length }, () => list[list.length - 1])]
}

function listOf(value: Condition['value']): readonly unknown[] {
  if (!Array.isArray(value)) throw new TypeError('The "in" operator takes an array')
  return value
}

/** Case-insensitive string conditions: `lower()` on both sides. */
function foldedSql(provider: Provider, column: Column, condition: Condition, binding: Binding): SQL {
  const left = sql`lower(${column})`
  const value = condition.value
  const lower = (raw: unknown) => sql`lower(${binding.text(raw)})`
  const operator = condition.operator ?? 'eq'
  switch (operator) {
    case 'eq':
      return value === null ? isNull(column) : sql`${left} = ${lower(value)}`
    case 'ne':
      return value === null ? isNotNull(column) : sql`(${left} <> ${lower(value)} or ${column} is null)`
    case 'in':
      return listOf(value).length === 0 ? alwaysFalse : sql`${left} in (${sql.join(padded(listOf(value)).map(lower), sql`, `)})`
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return textMatch(provider, operator, left, String(value), true, binding)
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return sql`${left} ${sql.raw(ORDERING[operator])} ${lower(value)}`
  }
}

const ORDERING = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const

function textMatch(provider: Provider, operator: 'contains' | 'starts_with' | 'ends_with', left: SQL, value: string, fold: boolean, binding: Binding): SQL {
  if (provider === 'sqlite') {
    // Each use of the needle is its own parameter, so a prepared statement's values line up with its placeholders.
    const needle = () => (fold ? sql`lower(${binding.text(value)})` : sql`${binding.text(value)}`)
    switch (operator) {
      case 'contains':
        return sql`instr(${left}, ${needle()}) > 0`
      case 'starts_with':
        return sql`substr(${left}, 1, length(${needle()})) = ${needle()}`
      case 'ends_with':
        return sql`(length(${left}) >= length(${needle()}) and substr(${left}, length(${left}) - length(${needle()}) + 1) = ${needle()})`
    }
  }
  const escaped = escapeLike(value)
  const pattern = binding.text(operator === 'contains' ? `%${escaped}%` : operator === 'starts_with' ? `${escaped}%` : `%${escaped}`)
  const bound = fold ? sql`lower(${pattern})` : sql`${pattern}`
  // With an ESCAPE clause naming another character, the backslash in the bound pattern is plain text.
  return sql`${left} like ${bound} escape ${sql.raw(`'${LIKE_ESCAPE}'`)}`
}
