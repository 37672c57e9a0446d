/**
 * @module
 * ADMIN_EMAILS: the users with these addresses get the admin role, once
 * their address is verified. Verified, because this example lets anyone
 * sign up without verifying: whoever registered an admin's address first
 * would otherwise become admin. The role is given when such a user is
 * created verified (social sign-in), by the update that verifies their
 * address, and at start-up for users who already have (a list changed
 * between restarts). Only then: an update of anything else (set-role's own)
 * leaves the role alone, so /admin/set-role demotes a listed admin, and the
 * demotion holds until the next start-up while the address stays listed.
 * Taking an address off the list does not demote: use /admin/set-role.
 */
import type { DatabaseHooks, Row, Store } from '@gatehouse/core'

export const ADMIN_ROLE = 'admin'

function qualifies(emails: ReadonlySet<string>, row: Row): boolean {
  return row.emailVerified === true && typeof row.email === 'string' && emails.has(row.email.toLowerCase()) && row.role !== ADMIN_ROLE
}

/**
 * Database hooks for `createAuth({ databaseHooks })`; `db` is read when a
 * hook runs, after `createAuth` has built the store.
 *
 * @example
 * databaseHooks: adminEmailHooks(new Set(['ops@example.com']), async () => (await auth.$context).db)
 */
export function adminEmailHooks(emails: ReadonlySet<string>, db: () => Promise<Store>): DatabaseHooks {
  if (emails.size === 0) return {}
  // The requests whose user update is setting emailVerified: the before-hook sees the changed fields, the
  // after-hook the row (whose address), and the request's context is the one thing both are handed.
  const verifying = new WeakSet<object>()
  return {
    user: {
      create: {
        before: (data) => (qualifies(emails, data) ? { data: { ...data, role: ADMIN_ROLE } } : undefined),
      },
      update: {
        before: (update, { endpoint }) => {
          if (update.emailVerified === true && typeof endpoint === 'object' && endpoint !== null) verifying.add(endpoint)
        },
        after: async (row, { endpoint }) => {
          if (typeof endpoint !== 'object' || endpoint === null || !verifying.delete(endpoint)) return
          if (qualifies(emails, row)) await (await db()).update({ model: 'user', where: { field: 'id', value: String(row.id) }, update: { role: ADMIN_ROLE } })
        },
      },
    },
  }
}

/** Gives the role to verified users on the list who do not have it yet; answers how many changed. */
export async function promoteAdmins(db: Store, emails: ReadonlySet<string>): Promise<number> {
  if (emails.size === 0) return 0
  return db.updateMany({
    model: 'user',
    where: [
      { field: 'email', operator: 'in', value: [...emails] },
      { field: 'emailVerified', value: true },
    ],
    update: { role: ADMIN_ROLE },
  })
}
