/**
 * @module
 * Requires a fresh session (SPEC §6: "time since last update under the fresh
 * age"; a fresh age of 0 turns the check off; otherwise 403 "Session is not
 * fresh"). The session is read from the store, never the cookie cache, and
 * without the usual refresh: a refresh stamps the session updated, and with
 * the default ages (updateAge = freshAge = 1 day) every session old enough to
 * be stale would be refreshed first and pass the check it should fail.
 */
import type { EndpointContext } from '../../endpoint/context.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { isFresh, resolveSession } from '../../session/resolve-session.js'
import type { SessionWithUser } from '../../session/types.js'

/**
 * @example
 * defineEndpoint({ method: 'POST', path: '/unlink-account', use: [freshSessionMiddleware], handler: ({ session }) => ... })
 */
export async function freshSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const session = await resolveSession(ctx, { disableCookieCache: true, disableRefresh: true })
  if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
  if (!isFresh(ctx, session)) throw new AuthError(CoreErrors.SESSION_NOT_FRESH)
  return { session }
}
