/**
 * @module
 * Compiles the adapter's `Where` clauses to SQL fragments with bound
 * parameters. Two guarantees the callers rely on hold on every backend:
 *
 * - String comparisons are case-sensitive unless `insensitive: true`, which
 *   applies `lower()` to both sides. SQLite's LIKE ignores ASCII case, so on
 *   SQLite the string operators use `instr`/`substr` instead; MySQL tables are
 *   created with the `utf8mb4_bin` collation so `=` and LIKE compare bytes.
 * - The value of `contains`/`starts_with`/`ends_with` is matched literally:
 *   `%`, `_` and the escape character itself are escaped, with an explicit
 *   ESCAPE clause so the meaning never depends on server settings. The
 *   escape character is `!`, not the backslash, whose literal MySQL reads
 *   differently under `NO_BACKSLASH_ESCAPES` (docs/adapters.md#dialect-notes). Otherwise
 *   a search for "a_b" would also match "axb" (and "%" would match anything).
 *
 * `whereShape` walks a clause the way `whereSql` does without building it:
 * it names the clause's shape (what the SQL text depends on) and lists the
 * values in the order the compiled SQL binds them. The statement cache
 * (statement-cache.ts) reuses one compiled text per shape with those values;
 * the two walks sit side by side here so a change to one is seen beside the
 * other, and the cache checks their agreement against a real compile on
 * every miss.
 */
import { sql, type RawBuilder } from 'kysely'
import { toWhere, type Condition, type Where, type WhereInput } from '../adapter.js'
import { columnName, getModel, type FieldDefinition, type Schema } from '../schema.js'
import { validateWhere } from '../where.js'
import { fieldDefinition, type SqlDialect } from './dialect.js'
import { toColumnValue } from './values.js'

export interface WhereContext {
  readonly schema: Schema
  readonly model: string
  readonly dialect: SqlDialect
  /** Table alias to qualify columns with, where a join makes bare names ambiguous (`id` is in every table). */
  readonly qualifier?: string
}

type Fragment = RawBuilder<unknown>

const alwaysTrue: Fragment = sql`1 = 1`
const alwaysFalse: Fragment = sql`1 = 0`

// Not the backslash: MySQL writes its literal '\\', which under sql_mode NO_BACKSLASH_ESCAPES is two
// characters, and ESCAPE then refuses every LIKE query. '!' is one character in every mode of every server.
const LIKE_ESCAPE = '!'

/** Escapes LIKE's wildcards (and the escape character) so the value is matched as written. */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char)
}

/** The LIKE pattern for a string operator: the escaped value with `%` where the match is open. */
function likePattern(operator: 'contains' | 'starts_with' | 'ends_with', value: string): string {
  const escaped = escapeLike(value)
  return operator === 'contains' ? `%${escaped}%` : operator === 'starts_with' ? `${escaped}%` : `%${escaped}`
}

function isCondition(where: Where): where is Condition {
  return !('and' in where) && !('or' in where)
}

/**
 * The SQL for a where input, or undefined when it places no restriction.
 *
 * @example
 * const clause = whereSql({ schema, model: 'user', dialect: 'postgres' }, { field: 'email', value: 'a@b.c' })
 * // "email" = $1
 */
export function whereSql(context: WhereContext, input: WhereInput | undefined): Fragment | undefined {
  // The same checks as the in-memory adapter: a misspelt field fails loudly instead of matching nothing.
  validateWhere(context.schema, context.model, input)
  const where = toWhere(input)
  return where === undefined ? undefined : clauseSql(context, where)
}

function clauseSql(context: WhereContext, where: Where): Fragment {
  if ('and' in where) {
    if (where.and.length === 0) return alwaysTrue
    return sql`(${sql.join(where.and.map((part) => clauseSql(context, part)), sql` and `)})`
  }
  if ('or' in where) {
    if (where.or.length === 0) return alwaysFalse
    return sql`(${sql.join(where.or.map((part) => clauseSql(context, part)), sql` or `)})`
  }
  if (isCondition(where)) return conditionSql(context, where)
  throw new TypeError('Invalid where clause')
}

function conditionSql(context: WhereContext, condition: Condition): Fragment {
  const { schema, model, dialect } = context
  const field = fieldDefinition(getModel(schema, model), model, condition.field)
  const name = columnName(schema, model, condition.field)
  const column = context.qualifier === undefined ? sql.id(name) : sql.id(context.qualifier, name)
  const operator = condition.operator ?? 'eq'
  const value = condition.value
  // `insensitive` only means something for text; on other types it is ignored.
  const fold = condition.insensitive === true && field.type === 'string'
  const left = fold ? sql`lower(${column})` : column
  const operand = (raw: unknown): Fragment => {
    const bound = sql`${toColumnValue(field, raw, dialect)}`
    return fold ? sql`lower(${bound})` : bound
  }

  switch (operator) {
    case 'eq':
      return value === null ? sql`${column} is null` : sql`${left} = ${operand(value)}`
    case 'ne':
      // Matches rows whose column is null too, as `!==` does: SQL's `<>` alone would drop them.
      return value === null
        ? sql`${column} is not null`
        : sql`(${left} <> ${operand(value)} or ${column} is null)`
    case 'lt':
      return sql`${left} < ${operand(value)}`
    case 'lte':
      return sql`${left} <= ${operand(value)}`
    case 'gt':
      return sql`${left} > ${operand(value)}`
    case 'gte':
      return sql`${left} >= ${operand(value)}`
    case 'in':
      return inSql(left, operand, value)
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return stringMatchSql(dialect, operator, left, field, value, fold)
  }
}

function inSql(left: Fragment, operand: (raw: unknown) => Fragment, value: Condition['value']): Fragment {
  if (!Array.isArray(value)) throw new TypeError('The "in" operator takes an array')
  const list: readonly unknown[] = value
  // `x in ()` is a syntax error on most backends, and matches nothing by definition.
  return list.length === 0 ? alwaysFalse : sql`${left} in (${sql.join(list.map(operand))})`
}

function stringMatchSql(
  dialect: SqlDialect,
  operator: 'contains' | 'starts_with' | 'ends_with',
  left: Fragment,
  field: FieldDefinition,
  value: Condition['value'],
  fold: boolean,
): Fragment {
  if (typeof value !== 'string') throw new TypeError(`The "${operator}" operator takes a string`)
  if (field.type !== 'string') throw new TypeError(`The "${operator}" operator applies to string fields only`)
  const needle = fold ? sql`lower(${value})` : sql`${value}`
  if (dialect === 'sqlite') {
    // Plain string functions: SQLite's LIKE is case-insensitive for ASCII whatever the collation.
    switch (operator) {
      case 'contains':
        return sql`instr(${left}, ${needle}) > 0`
      case 'starts_with':
        return sql`substr(${left}, 1, length(${needle})) = ${needle}`
      case 'ends_with':
        return sql`(length(${left}) >= length(${needle}) and substr(${left}, length(${left}) - length(${needle}) + 1) = ${needle})`
    }
  }
  const pattern = likePattern(operator, value)
  const bound = fold ? sql`lower(${pattern})` : sql`${pattern}`
  // With an ESCAPE clause naming another character, a backslash in the bound pattern is plain text.
  return sql`${left} like ${bound} escape ${sql.lit(LIKE_ESCAPE)}`
}

/**
 * The shape of a where input, with its bound values appended to `values`:
 * two inputs of one shape compile to the same SQL text, and `values` is then
 * exactly the parameter list of `whereSql`'s fragment, repeats included.
 * The shape is what the text depends on: the tree, each condition's field,
 * operator and case folding, whether its value is null, the length of an
 * `in` list. Validates the input exactly as `whereSql` does.
 *
 * @example
 * const values: unknown[] = []
 * whereShape({ schema, model: 'user', dialect: 'postgres' }, { field: 'email', value: 'a@b.c' }, values) // '"email" eq v'
 * values // ['a@b.c']
 */
export function whereShape(context: WhereContext, input: WhereInput | undefined, values: unknown[]): string {
  validateWhere(context.schema, context.model, input)
  const where = toWhere(input)
  return where === undefined ? '' : clauseShape(context, where, values)
}

function clauseShape(context: WhereContext, where: Where, values: unknown[]): string {
  if ('and' in where) return `and(${where.and.map((part) => clauseShape(context, part, values)).join(',')})`
  if ('or' in where) return `or(${where.or.map((part) => clauseShape(context, part, values)).join(',')})`
  if (isCondition(where)) return conditionShape(context, where, values)
  throw new TypeError('Invalid where clause')
}

/** Mirrors `conditionSql` case by case: one pushed value per bound parameter the fragment compiles to. */
function conditionShape(context: WhereContext, condition: Condition, values: unknown[]): string {
  const { schema, model, dialect } = context
  const field = fieldDefinition(getModel(schema, model), model, condition.field)
  const operator = condition.operator ?? 'eq'
  const value = condition.value
  const fold = condition.insensitive === true && field.type === 'string'
  // Field names are schema keys and may hold any character: quoted, they cannot run into the rest of the key.
  const prefix = `${JSON.stringify(condition.field)} ${operator}${fold ? ' i' : ''}`
  switch (operator) {
    case 'eq':
    case 'ne':
      if (value === null) return `${prefix} null`
      values.push(toColumnValue(field, value, dialect))
      return `${prefix} v`
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      values.push(toColumnValue(field, value, dialect))
      return `${prefix} v`
    case 'in': {
      if (!Array.isArray(value)) throw new TypeError('The "in" operator takes an array')
      const list: readonly unknown[] = value
      for (const item of list) values.push(toColumnValue(field, item, dialect))
      return `${prefix} ${String(list.length)}`
    }
    case 'contains':
    case 'starts_with':
    case 'ends_with': {
      if (typeof value !== 'string') throw new TypeError(`The "${operator}" operator takes a string`)
      if (field.type !== 'string') throw new TypeError(`The "${operator}" operator applies to string fields only`)
      if (dialect !== 'sqlite') values.push(likePattern(operator, value))
      // SQLite's forms name the needle once (instr), twice (starts_with) or three times (ends_with).
      else for (let i = operator === 'contains' ? 1 : operator === 'starts_with' ? 2 : 3; i > 0; i--) values.push(value)
      return `${prefix} v`
    }
  }
}
