/**
 * @module
 * Gatehouse `where` clauses as Prisma Client filters, with the semantics
 * every adapter shares (docs/adapters.md#where-clauses): `eq null` is
 * `IS NULL`, `ne 'x'` also matches nulls, `in []` and an empty `or` match
 * nothing, and `lt`/`gt` never match a null.
 *
 * Two kinds of string condition are answered by a raw query for the
 * matching ids instead, whose result enters the filter as `id in (…)`:
 * Prisma's `contains`, `startsWith` and `endsWith` pass `%` and `_` in the
 * value on as LIKE wildcards (a search for "a_b" would match "axb") and on
 * SQLite are case-insensitive, and `mode: 'insensitive'` exists on
 * PostgreSQL and MongoDB only. The raw query escapes LIKE's wildcards with
 * `!` and an explicit ESCAPE clause (SQLite: `instr`/`substr`), and folds
 * case with `lower()` on both sides, as core's Kysely adapter does.
 */
import { toWhere, validateWhere, type Condition, type Schema, type Where, type WhereInput } from '@gatehouse/core'
import type { Client, PrismaProvider } from './client.js'
import { fieldOf, type BoundField, type BoundModel } from './models.js'
import { parameters, quote, quoteTable, type Parameters } from './sql.js'
import { toPrisma } from './values.js'

export type Filter = Readonly<Record<string, unknown>>

export interface WhereContext {
  readonly schema: Schema
  readonly provider: PrismaProvider
  readonly model: BoundModel
  /** The client (or transaction client) the id queries run on. */
  readonly client: Client
}

/** A filter no row passes: no id is in an empty list. */
const NOTHING: Filter = { id: { in: [] } }
const EVERYTHING: Filter = {}

/**
 * The Prisma filter for a where input, or undefined when it places no restriction.
 *
 * @example
 * await prismaWhere(context, { field: 'note', operator: 'ne', value: 'x' }) // { OR: [{ note: { not: 'x' } }, { note: null }] }
 */
export async function prismaWhere(context: WhereContext, input: WhereInput | undefined): Promise<Filter | undefined> {
  validateWhere(context.schema, context.model.name, input)
  const where = toWhere(input)
  return where === undefined ? undefined : clause(context, where)
}

async function clause(context: WhereContext, where: Where): Promise<Filter> {
  if ('and' in where) return where.and.length === 0 ? EVERYTHING : { AND: await Promise.all(where.and.map((part) => clause(context, part))) }
  if ('or' in where) return where.or.length === 0 ? NOTHING : { OR: await Promise.all(where.or.map((part) => clause(context, part))) }
  return condition(context, where)
}

function listOf(value: Condition['value']): readonly unknown[] {
  if (!Array.isArray(value)) throw new TypeError('The "in" operator takes an array')
  return value
}

async function condition(context: WhereContext, condition: Condition): Promise<Filter> {
  const bound = fieldOf(context.model, condition.field)
  const { prisma, definition } = bound
  const nullable = definition.required === false
  const operator = condition.operator ?? 'eq'
  const value = condition.value
  // Prisma refuses a null filter on a required field, which holds no nulls anyway.
  if (operator === 'eq' && value === null) return nullable ? { [prisma]: null } : NOTHING
  if (operator === 'ne' && value === null) return nullable ? { [prisma]: { not: null } } : EVERYTHING
  if (operator === 'in' && listOf(value).length === 0) return NOTHING
  if (definition.type === 'string' && (condition.insensitive === true || operator === 'contains' || operator === 'starts_with' || operator === 'ends_with')) {
    return { id: { in: await matchingIds(context, bound, condition) } }
  }
  const input = (raw: unknown) => toPrisma(definition, raw)
  switch (operator) {
    case 'eq':
      return { [prisma]: { equals: input(value) } }
    case 'ne':
      // Prisma's `not` is SQL's `<>`, which drops the rows whose field is null; `!==` keeps them.
      return nullable ? { OR: [{ [prisma]: { not: input(value) } }, { [prisma]: null }] } : { [prisma]: { not: input(value) } }
    case 'in':
      return { [prisma]: { in: listOf(value).map(input) } }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return value === null ? NOTHING : { [prisma]: { [operator]: input(value) } }
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      // Only strings take these (validateWhere); the string case is above.
      return NOTHING
  }
}

const ORDERING = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const

/** The ids of the rows a string condition matches, read with one raw query. */
async function matchingIds(context: WhereContext, bound: BoundField, condition: Condition): Promise<string[]> {
  const { provider, model } = context
  const params = parameters(provider)
  const column = quote(provider, bound.column)
  const fold = condition.insensitive === true
  const left = fold ? `lower(${column})` : column
  const text = (raw: unknown) => (fold ? `lower(${params.add(String(raw))})` : params.add(String(raw)))
  const operator = condition.operator ?? 'eq'
  let test: string
  switch (operator) {
    case 'eq':
      test = `${left} = ${text(condition.value)}`
      break
    case 'ne':
      test = `(${left} <> ${text(condition.value)} or ${column} is null)`
      break
    case 'in':
      test = `${left} in (${listOf(condition.value).map(text).join(', ')})`
      break
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      test = `${left} ${ORDERING[operator]} ${text(condition.value)}`
      break
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      test = textMatch(provider, operator, left, String(condition.value), fold, params)
      break
  }
  const id = quote(provider, fieldOf(model, 'id').column)
  const rows = await context.client.$queryRawUnsafe(`select ${id} as ${quote(provider, 'id')} from ${quoteTable(provider, model.table)} where ${test}`, ...params.values)
  return Array.isArray(rows) ? rows.map((row: unknown) => String(Reflect.get(Object(row), 'id'))) : []
}

/** LIKE's escape character: `!` reads the same in every SQL mode of every server, unlike the backslash. */
const LIKE_ESCAPE = '!'

function textMatch(provider: PrismaProvider, operator: 'contains' | 'starts_with' | 'ends_with', left: string, value: string, fold: boolean, params: Parameters): string {
  const needle = () => (fold ? `lower(${params.add(value)})` : params.add(value))
  if (provider === 'sqlite') {
    // SQLite's LIKE ignores ASCII case; instr and substr compare exactly.
    switch (operator) {
      case 'contains':
        return `instr(${left}, ${needle()}) > 0`
      case 'starts_with':
        return `substr(${left}, 1, length(${needle()})) = ${needle()}`
      case 'ends_with':
        return `(length(${left}) >= length(${needle()}) and substr(${left}, length(${left}) - length(${needle()}) + 1) = ${needle()})`
    }
  }
  const escaped = value.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char)
  const pattern = operator === 'contains' ? `%${escaped}%` : operator === 'starts_with' ? `${escaped}%` : `%${escaped}`
  const bound = fold ? `lower(${params.add(pattern)})` : params.add(pattern)
  return `${left} like ${bound} escape '${LIKE_ESCAPE}'`
}
