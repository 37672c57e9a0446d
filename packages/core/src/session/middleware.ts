/**
 * @module
 * Middlewares for `use`: routes that need a session (SPEC §6 "Access levels")
 * get `ctx.session` typed; without one they answer 401.
 */
import type { EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { isFresh, resolveSession } from './resolve-session.js'
import type { SessionWithUser } from './types.js'

/**
 * Requires a session; the cookie cache may serve it.
 *
 * @example
 * defineEndpoint({ method: 'GET', path: '/list-sessions', use: [sessionMiddleware], handler: ({ session }) => ... })
 */
export async function sessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const session = await resolveSession(ctx)
  if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
  return { session }
}

/** Requires a session read from the store, never from the cookie cache: for password, email, delete and revoke routes. */
export async function sensitiveSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const session = await resolveSession(ctx, { disableCookieCache: true })
  if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
  return { session }
}

/** Adds the session when there is one, and null otherwise. */
export async function optionalSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser | null }> {
  return { session: await resolveSession(ctx) }
}

/**
 * Requires a fresh session (SPEC §6; 403 "Session is not fresh"), read from
 * the store, never the cookie cache.
 *
 * @example
 * defineEndpoint({ method: 'POST', path: '/unlink-account', use: [freshSessionMiddleware], handler: ({ session }) => ... })
 */
export async function freshSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const session = await resolveSession(ctx, { disableCookieCache: true })
  if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
  if (!isFresh(ctx, session)) throw new AuthError(CoreErrors.SESSION_NOT_FRESH)
  return { session }
}
