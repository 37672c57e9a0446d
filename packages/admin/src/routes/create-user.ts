/**
 * @module
 * POST /admin/create-user {email, password, name, role?, data?}: a user with
 * a credential account, created in one transaction (docs/admin.md#create-user).
 * Needs `user: create`; the role (default `defaultRole`) may grant no more
 * than the caller holds. `data` sets other user fields: `emailVerified`,
 * `image` and the configured additional fields, type-checked.
 */
import { AuthError, CoreErrors, defineEndpoint, isUniqueViolation, sensitiveSessionMiddleware, type FieldDefinition, type Row } from '@gatehouse/core'
import { joinRoles, parseRoles } from '@gatehouse/organization/access'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, requireGrantable, type AdminUser } from '../services/permission.js'
import { visibleUser } from '../services/users.js'

const body = z.lazy(() =>
  z.object({
    email: z.string(),
    password: z.string(),
    name: z.string().min(1),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
)

const BUILT_IN: Readonly<Record<string, FieldDefinition>> = {
  emailVerified: { type: 'boolean' },
  image: { type: 'string', required: false },
}

export function createUser(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/create-user',
    body,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { body, auth } = ctx
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { user: ['create'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS)
      const email = body.email.trim().toLowerCase()
      if (email.length > 254 || !z.email().safeParse(email).success) throw new AuthError(CoreErrors.INVALID_EMAIL)
      auth.passwords.checkLength(body.password)
      const roles = parseRoles(body.role ?? options.defaultRole)
      requireGrantable(options, caller, roles)
      const extra = pickData({ ...BUILT_IN, ...ctx.options.user?.additionalFields }, body.data ?? {})
      const hash = await auth.passwords.hash(body.password)
      try {
        const user = await ctx.db.transaction(async (tx) => {
          const created = await tx.create<AdminUser & Row>({
            model: 'user',
            data: { emailVerified: false, image: null, ...extra, name: body.name, email, role: joinRoles(roles) },
          })
          await tx.create({ model: 'account', data: { providerId: 'credential', accountId: created.id, userId: created.id, password: hash } })
          return created
        })
        return { user: visibleUser(auth, user) }
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(CoreErrors.USER_ALREADY_EXISTS)
        throw error
      }
    },
  })
}

/** Only known, writable fields of the right type; `input: false` fields stay server-owned here too. */
function pickData(fields: Readonly<Record<string, FieldDefinition>>, data: Readonly<Record<string, unknown>>): Row {
  const picked: Row = {}
  for (const [name, value] of Object.entries(data)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined
    if (!field || field.input === false) throw invalid(name, 'unknown field')
    if (value === null) {
      if (field.required === false) picked[name] = null
      else throw invalid(name, 'required')
      continue
    }
    const ok =
      field.type === 'json'
        ? typeof value === 'object'
        : field.type === 'date'
          ? typeof value === 'string' && !Number.isNaN(new Date(value).getTime())
          : typeof value === field.type
    if (!ok) throw invalid(name, `expected ${field.type}`)
    picked[name] = field.type === 'date' ? new Date(value as string) : value
  }
  return picked
}

function invalid(name: string, message: string): AuthError {
  return new AuthError(CoreErrors.VALIDATION_ERROR, {
    message: `body.data.${name}: ${message}`,
    details: { issues: [{ path: `body.data.${name}`, message }] },
  })
}
