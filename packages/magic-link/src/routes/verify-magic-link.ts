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
 */
import {
  appendQueryParam,
  createSession,
  defineEndpoint,
  normalizeEmail,
  setSessionCookies,
  type CreatedSession,
  type EndpointContext,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedMagicLinkOptions } from '../options.js'
import { consumeLinkToken, type LinkClaims } from '../token.js'

const query = z.lazy(() =>
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
    query,
    handler: async (ctx) => {
      const { callbackURL, newUserCallbackURL, errorCallbackURL } = ctx.query
      const outcome = await verify(ctx, options, ctx.query.token ?? '')
      if (!outcome.ok) {
        const target = errorCallbackURL || callbackURL || `${ctx.auth.baseURL}/error`
        return ctx.redirect(appendQueryParam(target, 'error', outcome.error))
      }
      setSessionCookies(ctx, outcome.session, { dontRemember: false })
      return ctx.redirect((outcome.isNewUser && newUserCallbackURL) || callbackURL || '/')
    },
  })
}

async function verify(ctx: EndpointContext, options: ResolvedMagicLinkOptions, token: string): Promise<Outcome> {
  if (!token) return { ok: false, error: 'invalid_token' }
  try {
    return await ctx.db.transaction(async (tx) => {
      const consumed = await consumeLinkToken(ctx, tx, token)
      // An expired token is consumed too: it is deleted, whatever happens next.
      if (!consumed.ok) return { ok: false, error: consumed.reason === 'expired' ? 'token_expired' : 'invalid_token' } as const
      const { user, isNewUser } = await signInUser(tx, options, consumed.claims)
      let session: CreatedSession
      try {
        session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), db: tx })
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
async function signInUser(tx: Store, options: ResolvedMagicLinkOptions, claims: LinkClaims): Promise<{ user: User; isNewUser: boolean }> {
  const email = normalizeEmail(claims.email)
  if (!email) throw new Refusal('invalid_token')
  const existing = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
  if (existing) {
    if (existing.emailVerified) return { user: existing, isNewUser: false }
    const updated = await tx.update<User & Row>({
      model: 'user',
      where: [
        { field: 'id', value: existing.id },
        { field: 'email', value: email },
      ],
      update: { emailVerified: true },
    })
    return { user: updated ?? existing, isNewUser: false }
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
