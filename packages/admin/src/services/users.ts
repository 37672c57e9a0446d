/**
 * @module
 * User rows as the admin routes answer them: without `returned: false`
 * fields, and with the admin fields always present (null when unset).
 */
import { publicRow, type AuthContext, type Row } from '@gatehouse/core'
import type { AdminUser } from './permission.js'

/**
 * @example
 * return { user: visibleUser(ctx.auth, created) }
 */
export function visibleUser(auth: Pick<AuthContext, 'schema'>, user: AdminUser | Row): AdminUser {
  const row = publicRow(auth.schema, 'user', user as Row) as AdminUser
  return { ...row, role: row.role ?? null, banned: row.banned ?? false, banReason: row.banReason ?? null, banExpires: row.banExpires ?? null }
}
