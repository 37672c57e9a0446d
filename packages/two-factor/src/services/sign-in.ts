/**
 * @module
 * The two halves of a sign-in with two-factor on (docs/two-factor.md#signing-in).
 *
 * `challenge` is core's `signInChallenge` hook on POST /sign-in/email: it
 * runs after the password was checked and before any session exists. For a
 * user with two-factor on, and no live trust cookie, it sets the pending
 * cookie and answers `{ twoFactorRedirect: true }`: core then creates no
 * session row, sets no session cookie and no cookie-cache entry.
 *
 * `completeSignIn` runs once a verify route accepted a code for the pending
 * user, whichever first factor started it (the password here, another
 * plugin's through services/first-factor.ts): it creates the session with
 * the remember-me choice made at sign-in and the session fields the first
 * factor's plugin asked for, sets the session cookies, clears the pending
 * cookie and, when asked, sets the trust cookie. The session records that it
 * passed the second factor, and with which kind of code
 * (`twoFactorVerifiedAt`, `twoFactorMethod`, services/proof.ts), and its
 * `amr` says the first factor plus one-time code (services/amr.ts). The
 * session is created under a lock of the user's two-factor row and only
 * while the trust version is the one the pending cookie carries: a
 * revocation of the user's credentials since the first step (reset, ban,
 * sign-out everywhere) replaced it under the same lock, so it either ends
 * this sign-in here or, committing after it, sweeps the session it made
 * (docs/two-factor.md#pending-sign-ins-end-with-the-accounts-credentials).
 */
import {
  AuthError,
  constantTimeEqual,
  createSession,
  isAuthError,
  mirrorSession,
  publicRow,
  requireCredentialVersion,
  setSessionCookies,
  type EndpointContext,
  type Row,
  type SignInAttempt,
  type User,
} from '@gatehouse/core'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions, TwoFactorFactor } from '../options.js'
import { signInAmr } from './amr.js'
import { isTrustedDevice, PASSWORD_FIRST_FACTOR, PENDING_COOKIE, setPendingCookie, setTrustCookie, type PendingSignIn } from './cookies.js'
import { findTwoFactor, isEnabled, type TwoFactorRow } from './state.js'

export function challenge(options: ResolvedTwoFactorOptions) {
  return async (ctx: EndpointContext, attempt: SignInAttempt) => {
    if (!isEnabled(attempt.user)) return
    const row = await findTwoFactor(ctx.db, attempt.user.id)
    if (row && isTrustedDevice(ctx, attempt.user.id, row.trustVersion)) return
    // Without a row no second factor can be checked, so the pending cookie could never complete.
    const trustVersion = row?.trustVersion ?? ''
    const credentialVersion = (attempt.user.credentialVersion as string | null | undefined) ?? null
    setPendingCookie(
      ctx,
      { userId: attempt.user.id, rememberMe: attempt.rememberMe, trustVersion, credentialVersion, firstFactor: attempt.amr.length > 0 ? attempt.amr : PASSWORD_FIRST_FACTOR, sessionFields: {} },
      options.pendingMaxAge,
    )
    return { twoFactorRedirect: true }
  }
}

export interface VerifiedAnswer {
  readonly status: true
  /** The new session's token when this call signed the user in; null when a session already existed. */
  readonly token: string | null
  readonly user: User
}

export async function completeSignIn(
  ctx: EndpointContext,
  options: ResolvedTwoFactorOptions,
  pending: PendingSignIn,
  method: TwoFactorFactor,
  trustDevice: boolean,
): Promise<VerifiedAnswer> {
  const signedIn = await ctx.db.transaction(async (tx) => {
    // The user row first, as every revocation locks it first (no deadlock), and still holding the credential
    // version the first step read: a reset or "sign out everywhere" since then ends this sign-in.
    try {
      await requireCredentialVersion(tx, pending.userId, pending.credentialVersion)
    } catch (error) {
      if (isAuthError(error) && error.code === 'CREDENTIALS_CHANGED') return null
      throw error
    }
    const row = await tx.lock<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: pending.userId } })
    // Two-factor turned off, or the credentials revoked, since the first step: this sign-in ended with them.
    if (!row || !constantTimeEqual(row.trustVersion, pending.trustVersion)) return null
    const user = await tx.findOne<User & Row>({ model: 'user', where: { field: 'id', value: pending.userId } })
    // Deleted since the first step: nothing to sign in to.
    if (!user) return null
    // The session passed the second factor now: for a few minutes, unless the code was emailed, that is the
    // proof the settings routes ask for (services/proof.ts). The first factor's fields go first: this plugin's own win.
    const session = await createSession(ctx.auth, user, {
      ipAddress: ctx.ip,
      userAgent: ctx.headers.get('user-agent'),
      db: tx,
      mirror: false,
      credentialVersion: pending.credentialVersion,
      amr: signInAmr(pending.firstFactor),
      fields: { ...pending.sessionFields, twoFactorVerifiedAt: ctx.clock.now(), twoFactorMethod: method },
    })
    return { user, session, trustVersion: row.trustVersion }
  })
  if (!signedIn) {
    ctx.cookies.delete(PENDING_COOKIE)
    throw new AuthError(TwoFactorErrors.NO_PENDING_SIGN_IN)
  }
  const { user, session } = signedIn
  await mirrorSession(ctx.auth, session)
  setSessionCookies(ctx, session, { dontRemember: !pending.rememberMe })
  ctx.cookies.delete(PENDING_COOKIE)
  if (trustDevice) setTrustCookie(ctx, user.id, signedIn.trustVersion, options.trustDeviceMaxAge)
  return { status: true, token: session.token, user: publicRow(ctx.auth.schema, 'user', user) }
}
