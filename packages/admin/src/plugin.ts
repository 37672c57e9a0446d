/**
 * @module
 * `admin(options)`: the plugin object (docs/admin.md). It adds the role and
 * ban fields to users and `impersonatedBy` to sessions, the `/admin/*`
 * routes, and the ban guard: a database hook on session creation, so every
 * path that signs a user in (password, social, magic link, impersonation)
 * refuses a banned user with 403, not only the password route. Impersonation
 * sessions end with the admin's power to open them: when core revokes the
 * admin's credentials (a ban, the admin's deletion, a password reset...),
 * and at their next read once the admin lost it (docs/admin.md#security).
 */
import { definePlugin, type AuthContext, type DatabaseHookContext, type Row } from '@gatehouse/core'
import { AdminErrors } from './errors.js'
import { resolveAdminOptions, type AdminOptions } from './options.js'
import { adminEndpoints } from './routes/index.js'
import { adminSchema } from './schema.js'
import { isBanned, refuseBanned } from './services/ban.js'
import { ADMIN_SESSION_COOKIE, endImpersonationsBy, impersonationEnd } from './services/impersonation.js'
import { findAdminUser } from './services/permission.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   emailAndPassword: { enabled: true },
 *   plugins: [admin({ adminUserIds: [process.env.FIRST_ADMIN_ID ?? ''] })],
 * })
 * await auth.api.banUser({ body: { userId, banReason: 'spam' }, headers })
 */
export function admin(options: AdminOptions = {}) {
  const resolved = resolveAdminOptions(options)
  let initialized: AuthContext | undefined
  // A write made by a request carries its context; otherwise the one this plugin was started with.
  const authFor = (ctx: DatabaseHookContext): AuthContext => {
    const endpoint = ctx.endpoint as { auth?: AuthContext } | undefined
    const auth = endpoint?.auth ?? initialized
    if (!auth) throw new Error('admin plugin used before createAuth initialised it')
    return auth
  }
  return definePlugin({
    id: 'admin',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'adminClient', from: '@gatehouse/admin/client' },
    schema: adminSchema(resolved),
    endpoints: adminEndpoints(resolved),
    errors: AdminErrors,
    init: (ctx: AuthContext) => {
      initialized = ctx
    },
    // Whatever ends an admin's own sign-ins ends the sign-ins they opened as others, in the same transaction.
    // The user's deletion locks the admin's row first, as impersonate-user does: the row is deleted after this
    // sweep, so nothing else would order a session being opened at that moment against it.
    onCredentialsRevoked: async ({ userId, reason, db }, auth) => {
      await endImpersonationsBy(auth, userId, db, { lock: reason === 'user-deleted' })
    },
    sessionEnd: ({ session }, auth) => impersonationEnd(auth, resolved, session),
    databaseHooks: {
      session: {
        create: {
          before: async (data: Row, ctx: DatabaseHookContext) => {
            const auth = authFor(ctx)
            // Through the write's own store: the session may be created inside a transaction (magic links).
            await refuseBanned(ctx.db ?? auth.db, auth.clock, resolved, String(data.userId))
          },
          // Closes the race with a ban committed between the check above and the insert:
          // the ban's sweep may have run before this row existed. The row only: this runs before the
          // creating call writes the copy to secondary storage, and that write reads the row again and
          // takes the copy back (docs/sessions.md#revocation-and-racing-reads), so a storage outage
          // cannot keep this session alive as it would make a revocation fail.
          after: async (row: Row, ctx: DatabaseHookContext) => {
            const auth = authFor(ctx)
            const user = await findAdminUser(auth.db, String(row.userId))
            if (user && isBanned(user, auth.clock.now())) {
              await auth.db.deleteMany({ model: 'session', where: { field: 'token', value: String(row.token) } })
            }
          },
        },
      },
    },
    hooks: {
      before: [
        {
          // Signing out of an impersonation forgets the admin's session too: the next person at
          // this browser must not be able to step back into it. Before the handler, so that a
          // sign-out answered 503 (secondary storage down) forgets it as well.
          matcher: (ctx) => ctx.path === '/sign-out',
          handler: (ctx) => {
            if (ctx.cookies.get(ADMIN_SESSION_COOKIE) !== undefined) ctx.cookies.delete(ADMIN_SESSION_COOKIE)
          },
        },
      ],
    },
  })
}
