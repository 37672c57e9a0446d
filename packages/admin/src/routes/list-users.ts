/**
 * @module
 * GET /admin/list-users (docs/admin.md#list-users): users matching a search
 * (`searchValue` in `searchField` email or name, `contains`, `starts_with`
 * or `ends_with`, case-insensitive) and a filter (`filterField`
 * `filterOperator` `filterValue` on any returned user field), sorted and
 * paged in the database, with the total of matches. Needs `user: list`.
 */
import { AuthError, CoreErrors, defineEndpoint, sensitiveSessionMiddleware, type Condition, type FieldDefinition, type Where } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, type AdminUser } from '../services/permission.js'
import { visibleUser } from '../services/users.js'

export const DEFAULT_LIST_LIMIT = 100
export const MAX_LIST_LIMIT = 1000

const query = z.lazy(() =>
  z.object({
    searchValue: z.string().optional(),
    searchField: z.enum(['email', 'name']).default('email'),
    searchOperator: z.enum(['contains', 'starts_with', 'ends_with']).default('contains'),
    limit: z.coerce.number<number>().int().positive().max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    offset: z.coerce.number<number>().int().min(0).default(0),
    sortBy: z.string().min(1).optional(),
    sortDirection: z.enum(['asc', 'desc']).default('asc'),
    filterField: z.string().min(1).optional(),
    filterValue: z.string().optional(),
    filterOperator: z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'starts_with', 'ends_with']).default('eq'),
  }),
)

export function listUsers(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/admin/list-users',
    query,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { query, auth } = ctx
      await requireAdminPermission(ctx.db, options, ctx.session, { user: ['list'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS)
      const fields = auth.schema.user?.fields ?? {}
      const where: Where[] = []
      if (query.searchValue !== undefined && query.searchValue !== '') {
        where.push({ field: query.searchField, operator: query.searchOperator, value: query.searchValue, insensitive: true })
      }
      if (query.filterField !== undefined) {
        if (query.filterValue === undefined) throw invalid('filterValue', 'required with filterField')
        where.push(filterCondition(fields, query.filterField, query.filterOperator, query.filterValue))
      }
      const sortBy = query.sortBy ?? 'createdAt'
      if (!listable(fields, sortBy)) throw invalid('sortBy', 'unknown field')
      const [users, total] = await Promise.all([
        ctx.db.findMany<AdminUser>({
          model: 'user',
          where,
          // The id breaks ties, so pages never overlap or skip rows that share a sort value.
          sortBy: [{ field: sortBy, direction: query.sortDirection }, { field: 'id', direction: query.sortDirection }],
          limit: query.limit,
          offset: query.offset,
        }),
        ctx.db.count({ model: 'user', where }),
      ])
      return { users: users.map((user) => visibleUser(auth, user)), total, limit: query.limit, offset: query.offset }
    },
  })
}

function listable(fields: Readonly<Record<string, FieldDefinition>>, field: string): boolean {
  if (field === 'id') return true
  const definition = Object.hasOwn(fields, field) ? fields[field] : undefined
  return definition !== undefined && definition.returned !== false && definition.type !== 'json'
}

/** The filter as a condition on a field of the user, its value read as that field's type. */
function filterCondition(
  fields: Readonly<Record<string, FieldDefinition>>,
  field: string,
  operator: NonNullable<Condition['operator']>,
  text: string,
): Condition {
  // Hidden fields cannot be filtered on either: a filter would reveal them a bit at a time.
  if (!listable(fields, field)) throw invalid('filterField', 'unknown field')
  const type = field === 'id' ? 'string' : fields[field]?.type
  const textual = operator === 'contains' || operator === 'starts_with' || operator === 'ends_with'
  if (textual && type !== 'string') throw invalid('filterOperator', `not applicable to ${field}`)
  switch (type) {
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw invalid('filterValue', 'expected true or false')
      return { field, operator, value: text === 'true' }
    case 'number': {
      const value = Number(text)
      if (text.trim() === '' || !Number.isFinite(value)) throw invalid('filterValue', 'expected a number')
      return { field, operator, value }
    }
    case 'date': {
      const value = new Date(text)
      if (Number.isNaN(value.getTime())) throw invalid('filterValue', 'expected a date')
      return { field, operator, value }
    }
    default:
      return { field, operator, value: text }
  }
}

function invalid(name: string, message: string): AuthError {
  return new AuthError(CoreErrors.VALIDATION_ERROR, {
    message: `query.${name}: ${message}`,
    details: { issues: [{ path: `query.${name}`, message }] },
  })
}
