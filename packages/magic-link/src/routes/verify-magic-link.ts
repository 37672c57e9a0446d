/**
 * @module
 * GET /magic-link/verify?token&callbackURL&newUserCallbackURL&errorCallbackURL
 * (docs/magic-link.md#the-flow): the link in the mail. In one transaction it
 * consumes the token (single use: of parallel openings exactly one wins),
 * finds the user or creates one (unless sign-up is off), marks the address
 * verified (the link proved the mailbox) and creates the session; then it
 * sets the session cookies and redirects to the callbackURL, or the
 * newUserCallbackURL for a user it created.
 *
 * Every failure is a redirect with `?error=<code>` to the errorCallbackURL,
 * else the callbackURL, else the error page: `invalid_token` (unknown, used,
 * malformed), `token_expired`, `signup_disabled`, `unable_to_create_user`,
 * `unable_to_create_session`. The redirect targets were checked by the
 * endpoint layer (relative or trusted, else 403) on this request too.
 *
 * A browser that holds a session of another user is not switched by the GET
 * (login CSRF by link, docs/security.md#login-csrf): it gets a confirmation
 * page, and the token stays unused for the page's POST
 * (verify-magic-link-post.ts). Both sign in through `signInWithLink`.
 */
import {
  appendQueryParam,
  confirmSignInPage,
  createSession,
  defineEndpoint,
  isBrowserNavigation,
  needsLinkConfirmation,
  normalizeEmail,
  signedInUserId,
  proveMailbox,
  readSessionToken,
  setSessionCookies,
  type AuthContext,
  type CreatedSession,
  type EndpointContext,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedMagicLinkOptions } from '../options.js'
import { consumeLinkToken, peekLinkToken, type LinkClaims } from '../token.js'

/** The link's query, and the body its confirmation page posts. */
export const linkFields = z.lazy(() =>
  z.object({
    token: z.string().optional(),
    callbackURL: z.string().optional(),
    newUserCallbackURL: z.string().optional(),
    errorCallbackURL: z.string().optional(),
  }),
)

export type MagicLinkErrorCode =
  | 'invalid_token'
  | 'token_expired'
  | 'signup_disabled'
  | 'unable_to_create_user'
  | 'unable_to_create_session'

type Outcome =
  | { readonly ok: true; readonly session: CreatedSession; readonly isNewUser: boolean }
  | { readonly ok: false; readonly error: MagicLinkErrorCode }

/** A failure inside the transaction: rolls it back (the token stays unused) and names the redirect code. */
class Refusal extends Error {
  constructor(readonly code: MagicLinkErrorCode) {
    super(code)
  }
}

/**
 * @example
 * // The mailed link: GET {baseURL}/magic-link/verify?token=Xk3…&callbackURL=/dashboard
 * // → 302 /dashboard with the session cookie, or 302 /dashboard?error=token_expired
 */
export function verifyMagicLink(options: ResolvedMagicLinkOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/magic-link/verify',
    query: linkFields,
    handler: async (ctx) => {
      const link = ctx.query
      const confirm = await needsConfirmation(ctx, link.token ?? '')
      if (confirm !== null) {
        return confirmSignInPage({
          appName: ctx.options.appName,
          email: confirm.email,
          action: `${ctx.auth.baseURL}/magic-link/verify`,
          fields: link,
          cancelURL: link.callbackURL,
          reason: confirm.reason,
        })
      }
      return signInWithLink(ctx, options, link, 302)
    },
  })
}

export type LinkFields = z.output<typeof linkFields>

/**
 * Redeems the link and signs its user in: the one place a magic link opens
 * a session, for the GET (no other user's session in the way) and the
 * confirmation's POST (303, so the browser follows with a GET). Redirects to
 * the callbackURL (newUserCallbackURL for a user it created), or with
 * `?error=` as described above.
 */
export async function signInWithLink(ctx: EndpointContext, options: ResolvedMagicLinkOptions, link: LinkFields, status: 302 | 303) {
  const { callbackURL, newUserCallbackURL, errorCallbackURL } = link
  const outcome = await verify(ctx, options, link.token ?? '')
  if (!outcome.ok) {
    const target = errorCallbackURL || callbackURL || `${ctx.auth.baseURL}/error`
    return ctx.redirect(appendQueryParam(target, 'error', outcome.error), status)
  }
  setSessionCookies(ctx, outcome.session, { dontRemember: false })
  return ctx.redirect((outcome.isNewUser && newUserCallbackURL) || callbackURL || '/', status)
}

/**
 * Whether the GET must ask before signing in, and why: the link would
 * replace the session of another user in this browser (a new user counts as
 * another: `switch`), or a signed-out browser that did not ask for the link
 * opens it as a page (`unrequested`, login CSRF: core's link-binding).
 * Only a usable link asks: an unknown or expired one fails as usual.
 */
async function needsConfirmation(
  ctx: EndpointContext,
  token: string,
): Promise<{ readonly email: string; readonly reason: 'switch' | 'unrequested' } | null> {
  const callerId = readSessionToken(ctx) ? await signedInUserId(ctx) : null
  // Nothing to replace and a client that is not a browser navigating: the usual opening costs no extra look-up.
  if (callerId === null && !isBrowserNavigation(ctx)) return null
  const claims = await peekLinkToken(ctx, token)
  const email = claims ? normalizeEmail(claims.email) : null
  if (!email) return null
  if (callerId !== null) {
    const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
    return callerId === user?.id ? null : { email, reason: 'switch' }
  }
  return needsLinkConfirmation(ctx, email) ? { email, reason: 'unrequested' } : null
}

async function verify(ctx: EndpointContext, options: ResolvedMagicLinkOptions, token: string): Promise<Outcome> {
  if (!token) return { ok: false, error: 'invalid_token' }
  try {
    return await ctx.db.transaction(async (tx) => {
      const consumed = await consumeLinkToken(ctx, tx, token)
      // An expired token is consumed too: it is deleted, whatever happens next.
      if (!consumed.ok) return { ok: false, error: consumed.reason === 'expired' ? 'token_expired' : 'invalid_token' } as const
      const { user, isNewUser } = await signInUser(ctx.auth, tx, options, consumed.claims)
      let session: CreatedSession
      try {
        session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), db: tx, amr: ['email'] })
      } catch (error) {
        ctx.logger.error('magic link: session not created', { error: error instanceof Error ? error.name : typeof error })
        throw new Refusal('unable_to_create_session')
      }
      return { ok: true, session, isNewUser } as const
    })
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.code }
    throw error
  }
}

/** The link's user, verified; created when unknown and sign-up is allowed. */
async function signInUser(
  auth: AuthContext,
  tx: Store,
  options: ResolvedMagicLinkOptions,
  claims: LinkClaims,
): Promise<{ user: User; isNewUser: boolean }> {
  const email = normalizeEmail(claims.email)
  if (!email) throw new Refusal('invalid_token')
  const existing = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
  if (existing) {
    // The link proved the mailbox. For an address not yet verified that is the first proof: it becomes
    // verified, and every session, password and link set up before it goes (docs/magic-link.md#security).
    const proven = await proveMailbox(auth, { user: existing, db: tx })
    if (!proven) throw new Refusal('invalid_token')
    return { user: proven, isNewUser: false }
  }
  // Refused here too, not only at send time: the option may have changed since the link was mailed.
  if (options.disableSignUp) throw new Refusal('signup_disabled')
  try {
    const user = await tx.create<User & Row>({
      model: 'user',
      data: { email, name: claims.name ?? '', emailVerified: true, image: null },
    })
    return { user, isNewUser: true }
  } catch {
    // A veto of a database hook, or another link for the same new address that won the race
    // (unique email): the transaction rolls back, the token stays unused and may be tried again.
    throw new Refusal('unable_to_create_user')
  }
}
