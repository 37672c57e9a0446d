/**
 * @module
 * Middlewares for `use`: routes that need a session (docs/sessions.md#who-may-call-what)
 * get `ctx.session` typed; without one they answer 401.
 */
import type { EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import type { SessionWithUser } from '../types/rows.js'
import { sessionSource } from './credentials.js'
import { isFresh, resolveSession } from './resolve-session.js'

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
 * Adds the session read from the store, never the cookie cache, or null. For
 * routes that hand out tokens and may also be called server-side with a
 * `userId` instead of a session (docs/social.md#provider-tokens): a session
 * revoked elsewhere keeps a valid cache cookie until `cookieCache.maxAge`, and
 * must not fetch a refresh token meanwhile. And for GET routes reached from a
 * mailed link that act for the signed-in user (delete-user/callback), which
 * answer a missing session themselves, so that a browser following the link
 * lands on its callbackURL with an error instead of on a JSON 401.
 *
 * @example
 * defineEndpoint({ method: 'POST', path: '/refresh-token', use: [optionalSensitiveSessionMiddleware], handler: ({ session }) => ... })
 */
export async function optionalSensitiveSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser | null }> {
  return { session: await resolveSession(ctx, { disableCookieCache: true }) }
}

/**
 * Requires a fresh session (docs/sessions.md#fresh-sessions; 403 "Session is not fresh"), read from
 * the store, never the cookie cache.
 *
 * @example
 * defineEndpoint({ method: 'POST', path: '/unlink-account', use: [freshSessionMiddleware], handler: ({ session }) => ... })
 */
export async function freshSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const { session } = await credentialSessionMiddleware(ctx)
  if (!isFresh(ctx, session)) throw new AuthError(CoreErrors.SESSION_NOT_FRESH)
  return { session }
}

/**
 * Requires a session that may change credentials: read from the store, never
 * the cookie cache, and established by the cookie or a bearer session token,
 * never by a plugin credential such as an API key (403 CREDENTIAL_NOT_ALLOWED).
 * For routes that change a password, an email, a second factor, passkeys,
 * API keys, sessions, linked accounts or the account itself: a leaked key must
 * not let its holder take the account over (docs/sessions.md#credentials-other-than-the-cookie).
 *
 * @example
 * defineEndpoint({ method: 'POST', path: '/change-password', use: [credentialSessionMiddleware], handler: ({ session }) => ... })
 */
export async function credentialSessionMiddleware(ctx: EndpointContext): Promise<{ session: SessionWithUser }> {
  const session = await resolveSession(ctx, { disableCookieCache: true })
  if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
  refuseForeignCredential(session)
  return { session }
}

/**
 * Throws 403 CREDENTIAL_NOT_ALLOWED when `session` came from a credential
 * that may not change credentials (an API key). For routes that check the
 * session themselves, or that write to the session row (a key's session has none).
 *
 * @example
 * refuseForeignCredential(ctx.session) // before changing the session's active organization
 */
export function refuseForeignCredential(session: SessionWithUser): void {
  if (!sessionSource(session).mayChangeCredentials) throw new AuthError(CoreErrors.CREDENTIAL_NOT_ALLOWED)
}
