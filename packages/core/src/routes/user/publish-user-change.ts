/**
 * @module
 * After a route changes the signed-in user (update-user, change-email), the
 * copies of that user held outside the user table must follow: every session
 * mirrored in secondary storage, and the caller's signed cookie cache.
 * update-user "makes the session refresh" (docs/accounts.md#updating-the-user); without this, get-session
 * would keep serving the old name or email until the cache expires.
 */
import { publicRow } from '../../db/output.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { setCookieCache } from '../../session/session-cookies.js'
import { refreshUserInStorage } from '../../session/session-store.js'
import type { SessionWithUser, User } from '../../types/rows.js'

/**
 * Rewrites the secondary-storage copies of the user's sessions and re-issues
 * the caller's cookie cache (when enabled) with the changed user.
 *
 * @example
 * const updated = await ctx.db.update<User & Row>({ model: 'user', where, update: { name } })
 * if (updated) await publishUserChange(ctx, ctx.session, updated)
 */
export async function publishUserChange(
  ctx: Pick<EndpointContext, 'auth' | 'cookies' | 'clock' | 'options'>,
  current: SessionWithUser,
  user: User,
): Promise<void> {
  await refreshUserInStorage(ctx.auth, user)
  setCookieCache(ctx, { session: current.session, user: publicRow(ctx.auth.schema, 'user', user) })
}
