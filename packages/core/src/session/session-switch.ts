/**
 * @module
 * Whether a sign-in by link would replace the session of someone else
 * (docs/security.md#login-csrf). A GET that signs a browser in can be
 * started by any site; it may sign in a browser that holds no session, or
 * refresh the one of the same user, but it never silently swaps a signed-in
 * person into another account: the route shows confirm-sign-in-page.ts
 * instead, and its POST completes the sign-in.
 */
import type { EndpointContext } from '../endpoint/context.js'
import type { SessionWithUser } from '../types/rows.js'
import { resolveSession } from './resolve-session.js'

/**
 * The caller's session when it belongs to a user other than `userId` (null:
 * the link would create a new user), else null. Read from the store, never
 * from the cookie cache, which may still show a session revoked elsewhere;
 * not refreshed, so nothing is written on the way.
 *
 * @example
 * if (await otherUserSession(ctx, existing?.id ?? null)) return confirmSignInPage({ ... })
 */
export async function otherUserSession(ctx: EndpointContext, userId: string | null): Promise<SessionWithUser | null> {
  const caller = await resolveSession(ctx, { disableCookieCache: true, disableRefresh: true })
  return caller && caller.user.id !== userId ? caller : null
}

/**
 * The id of the user this browser is signed in as, read from the store (a
 * revoked or stale cookie is nobody's); null when signed out.
 *
 * @example
 * const callerId = readSessionToken(ctx) ? await signedInUserId(ctx) : null
 */
export async function signedInUserId(ctx: EndpointContext): Promise<string | null> {
  const caller = await resolveSession(ctx, { disableCookieCache: true, disableRefresh: true })
  return caller?.user.id ?? null
}
