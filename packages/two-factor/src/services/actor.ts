/**
 * @module
 * Who a verify or send call is for (docs/two-factor.md#signing-in): the
 * pending sign-in of this browser when its cookie is there (the second step
 * of a sign-in), else the signed-in user, read from the store and never the
 * cookie cache (confirming a setup, or a check of a signed-in user). Neither:
 * 401 "No pending two-factor sign-in".
 */
import { AuthError, requestSessionToken, credentialSessionMiddleware, type EndpointContext, type SessionWithUser } from '@gatehouse/core'
import { TwoFactorErrors } from '../errors.js'
import type { GuardOutcome } from './guard.js'
import { readPendingCookie, type PendingSignIn } from './cookies.js'

export type Actor =
  | { readonly kind: 'sign-in'; readonly userId: string; readonly pending: PendingSignIn }
  | { readonly kind: 'session'; readonly userId: string; readonly session: SessionWithUser }

export async function resolveActor(ctx: EndpointContext): Promise<Actor> {
  const pending = readPendingCookie(ctx)
  if (pending) return { kind: 'sign-in', userId: pending.userId, pending }
  if (!requestSessionToken(ctx)) throw new AuthError(TwoFactorErrors.NO_PENDING_SIGN_IN)
  const { session } = await credentialSessionMiddleware(ctx)
  return { kind: 'session', userId: session.user.id, session }
}

/** Turns a refused check into its error: one "Invalid code" for every wrong, reused or expired code. */
export function refuse(outcome: GuardOutcome, actor: Actor): void {
  if (outcome.ok) return
  if (outcome.reason === 'locked') throw new AuthError(TwoFactorErrors.TOO_MANY_ATTEMPTS)
  if (outcome.reason === 'not-set-up') {
    throw new AuthError(actor.kind === 'sign-in' ? TwoFactorErrors.TWO_FACTOR_NOT_ENABLED : TwoFactorErrors.TOTP_NOT_SET_UP)
  }
  throw new AuthError(TwoFactorErrors.INVALID_CODE)
}
