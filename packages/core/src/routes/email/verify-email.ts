/**
 * @module
 * GET /verify-email?token&callbackURL (docs/accounts.md#email-verification).
 * The token is the HS256 JWT of verification/email-token.ts: its key serves
 * no other purpose, so a reset or delete-account token never verifies here.
 *
 * - Plain token: the user holding the claimed address becomes verified
 *   (already verified: still a success, nothing changes).
 * - Change-confirmation token (`updateTo`, its own key): the change-email
 *   flow's second step, applied only for a session of the user it names
 *   (see apply-email-change.ts). The plain token needs no session: it proves
 *   the mailbox, and its link may be opened on another device.
 *
 * Errors (token_expired, invalid_token, user_not_found; unauthorized for a
 * confirmation without a session) go to the callbackURL as `?error=` /
 * `&error=`; without one the reply is 401 with the code as the message
 * (no session: the usual 401 "Unauthorized"). Success redirects to the callbackURL, else answers
 * `{ status: true, user }`.
 *
 * verify-email makes the session refresh. A caller already signed in
 * as this user gets a cookie cache carrying the changed user; with
 * `autoSignInAfterVerification` a caller without a session is signed
 * in — only on the unverified-to-verified transition, so a verification link,
 * valid for an hour and not single-use, signs in at most once — unless a
 * plugin's `mayAutoSignIn` refuses (a user with two-factor on: the link
 * proves the mailbox, not the second factor, docs/two-factor.md#which-sign-ins-are-challenged);
 * then the link only verifies.
 *
 * A caller signed in as another user is not switched by the GET (login CSRF
 * by link, docs/security.md#login-csrf): the address is verified, the
 * sign-in is parked (pending-sign-in.ts), and a browser with a callbackURL
 * gets the confirmation page, whose POST (verify-email-post.ts) takes the
 * parked sign-in. A caller without callbackURL gets the usual
 * `{ status, user }` with its own session untouched, and may POST the token
 * to switch.
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { clearEmailMoves, hasUnprovenMove } from '../../accounts/email-moves.js'
import { findUserByEmail } from '../../accounts/users.js'
import type { Row } from '../../db/adapter.js'
import { publicRow } from '../../db/output.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { needsLinkConfirmation } from '../../session/link-binding.js'
import { proveMailbox } from '../../session/prove-mailbox.js'
import { resolveSession } from '../../session/resolve-session.js'
import { setCookieCache, setSessionCookies } from '../../session/session-cookies.js'
import { createSession, refreshUserInStorage } from '../../session/session-store.js'
import type { User } from '../../types/rows.js'
import { verifyEmailToken } from '../../verification/email-token.js'
import { appendQueryParam } from '../../security/append-query.js'
import { applyEmailChange, type VerifyEmailError } from './apply-email-change.js'
import { parkSignIn, takeParkedSignIn } from './pending-sign-in.js'
import { confirmSignInPage } from '../system/confirm-sign-in-page.js'

type Outcome =
  | { readonly ok: true; readonly user: User; readonly changed: boolean; readonly newlyVerified: boolean }
  | { readonly ok: false; readonly error: VerifyEmailError | 'internal_server_error' }

/**
 * @example
 * // The mailed link: GET {baseURL}/verify-email?token=eyJ...&callbackURL=/welcome
 * const { user } = await auth.api.verifyEmail({ query: { token } })
 */
export const verifyEmail = defineEndpoint({
  method: 'GET',
  path: '/verify-email',
  query: z.lazy(() =>
    z.object({
      token: z.string().optional(),
      callbackURL: z.string().optional(),
    }),
  ),
  handler: (ctx) => redeemVerificationLink(ctx, ctx.query, { confirmed: false }),
})

export interface VerificationLink {
  readonly token?: string | undefined
  readonly callbackURL?: string | undefined
}

/**
 * The link's work, for the GET (`confirmed: false`) and for the POST of the
 * confirmation page (`confirmed: true`, which may replace another user's
 * session). The POST answers a redirect with 303, so the browser follows it with a GET.
 */
export async function redeemVerificationLink(ctx: EndpointContext, link: VerificationLink, { confirmed }: { confirmed: boolean }) {
  const { callbackURL } = link
  const token = link.token ?? ''
  let outcome: Outcome
  try {
    outcome = await verify(ctx, token, callbackURL)
  } catch (error) {
    // A browser following a mailed link should land on the app's page, not on a JSON error.
    if (!callbackURL || !(error instanceof AuthError) || error.code !== 'FAILED_TO_SEND_EMAIL') throw error
    outcome = { ok: false, error: 'internal_server_error' }
  }

  if (!outcome.ok) {
    if (callbackURL) return ctx.redirect(appendQueryParam(callbackURL, 'error', outcome.error), confirmed ? 303 : 302)
    // No session: the same 401 as every route that needs one.
    if (outcome.error === 'unauthorized') throw new AuthError(CoreErrors.UNAUTHORIZED)
    throw new AuthError(CoreErrors.UNAUTHORIZED, { message: outcome.error })
  }
  const settled = await settleSession(ctx, outcome, token, confirmed)
  if (outcome.newlyVerified) await afterVerification(ctx, outcome.user)
  if (settled !== 'settled' && callbackURL) {
    return confirmSignInPage({
      appName: ctx.options.appName,
      email: outcome.user.email,
      action: `${ctx.auth.baseURL}/verify-email`,
      fields: { token, callbackURL },
      cancelURL: callbackURL,
      reason: settled,
    })
  }
  if (callbackURL) return ctx.redirect(callbackURL, confirmed ? 303 : 302)
  return { status: true, user: publicRow(ctx.auth.schema, 'user', outcome.user) }
}

async function verify(ctx: EndpointContext, token: string, callbackURL: string | undefined): Promise<Outcome> {
  const checked = await verifyEmailToken(ctx, token)
  if (!checked.ok) return { ok: false, error: checked.reason === 'expired' ? 'token_expired' : 'invalid_token' }
  if (checked.step === 'change-confirmation') {
    const changed = await applyEmailChange(ctx, checked.claims, callbackURL)
    return changed.ok ? { ok: true, user: changed.user, changed: true, newlyVerified: false } : changed
  }

  const email = normalizeEmail(checked.claims.email)
  const user = email ? await findUserByEmail(ctx.db, email) : null
  if (!user) return { ok: false, error: 'user_not_found' }

  if (user.emailVerified) return { ok: true, user, changed: false, newlyVerified: false }
  // An address the account moved onto by change-email, opened outside the account's own browser: its
  // owner proved it, and whatever the account's holder set up before ends (accounts/email-moves.ts).
  if ((await hasUnprovenMove(ctx.db, user)) && !(await heldByCaller(ctx, user.id))) return proveMovedAddress(ctx, user)
  const updated = await ctx.db.update<User & Row>({
    model: 'user',
    // Still the address the token was issued for: a user who moved on since is not verified by an old link.
    // Still unverified: of concurrent redemptions (several processes) one makes the transition and signs in.
    where: [
      { field: 'id', value: user.id },
      { field: 'email', value: user.email },
      { field: 'emailVerified', value: false },
    ],
    update: { emailVerified: true },
  })
  if (!updated) {
    // Another redemption verified it first: a success that changes nothing, as for an already verified user.
    const current = await findUserByEmail(ctx.db, user.email)
    if (current?.id === user.id && current.emailVerified) return { ok: true, user: current, changed: false, newlyVerified: false }
    return { ok: false, error: 'user_not_found' }
  }
  await clearEmailMoves(ctx.db, user.id)
  return { ok: true, user: updated, changed: true, newlyVerified: true }
}

/** Whether this browser is signed in as `userId` (from the store: a revoked session is nobody's). */
async function heldByCaller(ctx: EndpointContext, userId: string): Promise<boolean> {
  const caller = await resolveSession(ctx, { disableCookieCache: true, disableRefresh: true })
  return caller?.user.id === userId
}

/**
 * The first proof of a moved-to address by someone other than the account's
 * holder: as a reset, it verifies the address and ends every session, grant,
 * password and linked account set up before (`proveMailbox`), in one transaction.
 */
async function proveMovedAddress(ctx: EndpointContext, user: User): Promise<Outcome> {
  const proven = await ctx.db.transaction(async (tx) => {
    const current = await tx.findOne<User & Row>({ model: 'user', where: { field: 'id', value: user.id } })
    // Moved on, or verified by a concurrent redemption: this link proves nothing now.
    if (!current || current.email !== user.email || current.emailVerified) return null
    const result = await proveMailbox(ctx.auth, { user: current, db: tx })
    if (result) await clearEmailMoves(tx, user.id)
    return result
  })
  if (proven) return { ok: true, user: proven, changed: true, newlyVerified: true }
  const current = await findUserByEmail(ctx.db, user.email)
  if (current?.id === user.id && current.emailVerified) return { ok: true, user: current, changed: false, newlyVerified: false }
  return { ok: false, error: 'user_not_found' }
}

/**
 * verify-email makes the session refresh, and may sign in (`autoSignInAfterVerification`).
 * The sign-in is parked instead, for the confirmation page's POST, when it
 * would replace another user's session (`switch`), or when a browser that did
 * not ask for the link opens it signed out (`unrequested`: login CSRF, session/link-binding.ts).
 */
async function settleSession(
  ctx: EndpointContext,
  outcome: Outcome & { ok: true },
  token: string,
  confirmed: boolean,
): Promise<'settled' | 'switch' | 'unrequested'> {
  const { user } = outcome
  if (outcome.changed) await refreshUserInStorage(ctx.auth, user)
  // The store, not the cookie cache: a session revoked elsewhere must not count as anyone's.
  const caller = await resolveSession(ctx, { disableCookieCache: true, disableRefresh: true })
  if (caller && caller.user.id === user.id) {
    if (outcome.changed) setCookieCache(ctx, { session: caller.session, user: publicRow(ctx.auth.schema, 'user', user) })
    // Already this user: a sign-in parked for this browser is owed to nobody now.
    if (confirmed) await takeParkedSignIn(ctx, token, user.id)
    return 'settled'
  }
  if (!ctx.options.emailVerification?.autoSignInAfterVerification) return 'settled'
  // The one sign-in a link owes: its transition, or (on the confirmation's POST) the one parked by the GET.
  const owed = outcome.newlyVerified || (confirmed && (await takeParkedSignIn(ctx, token, user.id)))
  if (!owed || !(await pluginsAllowAutoSignIn(ctx, user))) return 'settled'
  if (!confirmed && (caller || needsLinkConfirmation(ctx, user.email))) {
    await parkSignIn(ctx, token, user.id)
    return caller ? 'switch' : 'unrequested'
  }
  await signInAfterVerification(ctx, user)
  return 'settled'
}

/** Every plugin's `mayAutoSignIn` (docs/plugins.md#the-contract): one refusal and the link signs nobody in. */
async function pluginsAllowAutoSignIn(ctx: EndpointContext, user: User): Promise<boolean> {
  for (const plugin of ctx.auth.plugins) {
    if (plugin.mayAutoSignIn && !(await plugin.mayAutoSignIn(ctx, user))) return false
  }
  return true
}

/** The auto sign-in itself: the one place a verification link opens a session and sets its cookies. */
async function signInAfterVerification(ctx: EndpointContext, user: User): Promise<void> {
  const created = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), amr: ['email'] })
  setSessionCookies(ctx, created, { dontRemember: false })
}

/** The change is committed: a failing application callback is logged, not turned into an error for a done verification. */
async function afterVerification(ctx: EndpointContext, user: User): Promise<void> {
  const callback = ctx.options.emailVerification?.afterEmailVerification
  if (!callback) return
  try {
    await callback(publicRow(ctx.auth.schema, 'user', user))
  } catch (error) {
    ctx.logger.error('afterEmailVerification callback failed', {
      userId: user.id,
      error: error instanceof Error ? error.name : typeof error,
    })
  }
}
