/**
 * @module
 * Whose keys a call manages (docs/api-key.md#organization-keys). A request
 * needs a session that may change credentials: the cookie or a bearer token,
 * never an API key (a key must not mint, widen or delete keys; 403
 * CREDENTIAL_NOT_ALLOWED), and may not name a `userId`. A server call
 * (`auth.api.*`) may name the user instead of passing their headers.
 */
import { AuthError, refuseForeignCredential, type SessionWithUser } from '@gatehouse/core'
import { ApiKeyErrors } from '../errors.js'

export interface Caller {
  readonly userId: string
  /** True for requests, which may not set server-only properties. */
  readonly fromClient: boolean
}

/**
 * @example
 * const caller = requireCaller(ctx, ctx.session, ctx.body.userId)
 */
export function requireCaller(ctx: { readonly isServerCall: boolean }, session: SessionWithUser | null, userId: string | undefined): Caller {
  if (!ctx.isServerCall) {
    if (userId !== undefined || !session) throw new AuthError(ApiKeyErrors.UNAUTHORIZED_SESSION)
    refuseForeignCredential(session)
    return { userId: session.user.id, fromClient: true }
  }
  if (session) {
    refuseForeignCredential(session)
    if (userId !== undefined && userId !== session.user.id) throw new AuthError(ApiKeyErrors.UNAUTHORIZED_SESSION)
    return { userId: session.user.id, fromClient: false }
  }
  if (!userId) throw new AuthError(ApiKeyErrors.UNAUTHORIZED_SESSION)
  return { userId, fromClient: false }
}
