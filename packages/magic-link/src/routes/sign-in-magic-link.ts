/**
 * @module
 * POST /sign-in/magic-link {email, name?, callbackURL?, newUserCallbackURL?, errorCallbackURL?}
 * (docs/magic-link.md#the-flow). Always `{ status: true }`: a known and an
 * unknown address get the same answer and the same database work (a token
 * row is stored either way), which prevents account enumeration. The link
 * `{baseURL}/magic-link/verify?token=…&callbackURL=…` goes out through the
 * application's `sendMagicLink`, except to an unknown address while sign-up
 * is off: nobody could use that link.
 *
 * With sign-up off, only known addresses get the callback, so waiting for it
 * would be an enumeration oracle: its latency, or its failure answered 500,
 * would tell which addresses have accounts. There both take one path: the
 * answer goes at once, and the mail (or, for an unknown address, nothing)
 * runs after it (core's createAfterAnswer); a failing callback deletes the token and
 * is logged. With sign-up allowed every address gets the callback, so it is
 * awaited and its failure answered.
 *
 * The redirect targets were checked by the endpoint layer (relative or
 * trusted, 403 otherwise) and are checked again when the link is opened.
 * A failing mail callback deletes the token (before the 500, when awaited).
 */
import { AuthError, bindLinkToBrowser, CoreErrors, defineEndpoint, deliverMail, normalizeEmail, type AfterAnswer, type EndpointContext, type Row } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedMagicLinkOptions } from '../options.js'
import { createLinkToken, deleteLinkToken } from '../token.js'

const body = z.lazy(() =>
  z.object({
    email: z.string(),
    name: z.string().max(256).optional(),
    callbackURL: z.string().optional(),
    newUserCallbackURL: z.string().optional(),
    errorCallbackURL: z.string().optional(),
  }),
)

type Body = z.output<typeof body>

/** The verify link; the redirect targets ride along, to be checked again when it is opened. */
function linkURL(ctx: EndpointContext<Body>, token: string): string {
  const query = new URLSearchParams({ token, callbackURL: ctx.body.callbackURL || '/' })
  if (ctx.body.newUserCallbackURL) query.set('newUserCallbackURL', ctx.body.newUserCallbackURL)
  if (ctx.body.errorCallbackURL) query.set('errorCallbackURL', ctx.body.errorCallbackURL)
  return `${ctx.auth.baseURL}/magic-link/verify?${query.toString()}`
}

/**
 * @example
 * await auth.api.signInMagicLink({ body: { email: 'ada@example.com', callbackURL: '/dashboard' } })
 * // { status: true }, and sendMagicLink({ email, url, token }) was called
 */
export function signInMagicLink(options: ResolvedMagicLinkOptions, later: AfterAnswer) {
  return defineEndpoint({
    method: 'POST',
    path: '/sign-in/magic-link',
    body,
    handler: async (ctx) => {
      const email = normalizeEmail(ctx.body.email)
      if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
      const user = await ctx.db.findOne<Row>({ model: 'user', where: { field: 'email', value: email } })
      const name = ctx.body.name?.trim() || null
      // Stored either way: the same writes for a known and an unknown address.
      const { token, id } = await createLinkToken(ctx.auth, { email, name }, options.expiresIn)
      const mail = { email, url: linkURL(ctx, token), token }
      // This browser asked: the link opened here signs in at once, elsewhere after "Continue as …"
      // (docs/magic-link.md#security). Set for a known and an unknown address alike.
      bindLinkToBrowser(ctx, email, options.expiresIn)
      if (options.disableSignUp) {
        // The same call for a known and an unknown address; what differs happens after the answer.
        later.schedule(ctx.logger, async () => {
          if (!user) return
          await deliverMail(ctx, 'magic-link', options.sendMagicLink, mail).catch(() => deleteLinkToken(ctx.auth, id))
        }, 'magic link')
        return { status: true }
      }
      try {
        await deliverMail(ctx, 'magic-link', options.sendMagicLink, mail)
      } catch (error) {
        await deleteLinkToken(ctx.auth, id)
        throw error
      }
      return { status: true }
    },
  })
}
