/**
 * @module
 * `anonymous(options)`: guests (docs/anonymous.md). The `isAnonymous` user
 * field, POST /sign-in/anonymous and /delete-anonymous-user (routes.ts),
 * the link of a guest into the account it signs up or in as (link.ts), a
 * refusal of address changes for guests, and the cleanup of guests older
 * than `maxAge` through `auth.api.cleanup()`.
 */
import { AuthError, definePlugin, deleteUserRows, type AuthContext, type HookContext, type Row } from '@gatehouse/core'
import { AnonymousErrors } from './errors.js'
import { linkGuest } from './link.js'
import { resolveOptions, type AnonymousOptions, type ResolvedAnonymousOptions } from './options.js'
import { callerIsGuest, deleteAnonymousUser, signInAnonymous } from './routes.js'
import { anonymousSchema } from './schema.js'

/**
 * A guest's placeholder address is not theirs: moving it onto a real one would make a real address's account of a
 * user the cleanup deletes. A guest who wants an address signs up, and its data follows (link.ts).
 */
const ADDRESS_CHANGES = new Set(['/change-email', '/email-otp/request-email-change', '/email-otp/change-email'])

const CLEANUP_BATCH = 100

/** Deletes guests created before `now - maxAge`, each as any user's deletion (sessions and plugin grants end too). */
async function deleteOldGuests(ctx: AuthContext, options: ResolvedAnonymousOptions, now: Date): Promise<void> {
  const before = new Date(now.getTime() - options.maxAge * 1000)
  for (;;) {
    const guests = await ctx.db.findMany<Row & { id: string }>({
      model: 'user',
      where: [
        { field: 'isAnonymous', value: true },
        { field: 'createdAt', operator: 'lt', value: before },
      ],
      limit: CLEANUP_BATCH,
    })
    for (const guest of guests) await ctx.db.transaction((tx) => deleteUserRows(ctx, guest.id, tx))
    if (guests.length < CLEANUP_BATCH) return
  }
}

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://shop.example.com',
 *   plugins: [anonymous({ onLinkAccount: ({ anonymousUser, newUser, db }) => carts.move(db, anonymousUser.user.id, newUser.user.id) })],
 * })
 */
export function anonymous(options: AnonymousOptions = {}) {
  const resolved = resolveOptions(options)
  return definePlugin({
    id: 'anonymous',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'anonymousClient', from: '@gatehouse/anonymous/client' },
    schema: anonymousSchema,
    endpoints: { signInAnonymous: signInAnonymous(resolved), deleteAnonymousUser: deleteAnonymousUser(resolved) },
    errors: AnonymousErrors,
    hooks: {
      before: [
        {
          matcher: (ctx: HookContext) => ADDRESS_CHANGES.has(ctx.path),
          handler: async (ctx: HookContext) => {
            if (await callerIsGuest(ctx)) throw new AuthError(AnonymousErrors.ANONYMOUS_USERS_CANNOT_CHANGE_EMAIL)
          },
        },
      ],
      after: [{ matcher: () => true, handler: linkGuest(resolved) }],
    },
    rateLimit: [{ pathMatcher: (path: string) => path === '/sign-in/anonymous', window: resolved.rateLimit.window, max: resolved.rateLimit.max }],
    cleanup: async (ctx: AuthContext, now: Date) => {
      await deleteOldGuests(ctx, resolved, now)
      return []
    },
  })
}
