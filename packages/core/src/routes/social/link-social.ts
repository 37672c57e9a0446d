/**
 * @module
 * POST /link-social (docs/social.md#linking-an-account): adds a provider
 * account to the signed-in user. Without `idToken` it starts a redirect flow
 * whose state carries the user's id and email; the callback links only if
 * that same user is still signed in. With `idToken` it links at once, under
 * the same rules: linking on, the provider trusted or the email verified,
 * the email equal to the user's unless `allowDifferentEmails`, and the
 * provider account not already another user's.
 *
 * A linked provider account is a way to sign in that survives a password
 * change, so adding one needs a fresh session read from the store
 * (403 "Session is not fresh" past `freshAge`): a session revoked elsewhere,
 * still vouched for by its cache cookie, or an old stolen one, must not plant
 * such a backdoor (docs/social.md#linking-an-account).
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { freshSessionMiddleware } from '../../session/middleware.js'
import { linkRefusal, linkToUser } from '../../social/accounts.js'
import { startFlow } from '../../social/flow.js'
import { idTokenProfile } from '../../social/id-token.js'
import { idTokenInput, scopesInput } from './schemas.js'

/**
 * @example
 * const { url } = await auth.api.linkSocial({ body: { provider: 'google', callbackURL: '/settings' }, headers: request.headers })
 */
export const linkSocial = defineEndpoint({
  method: 'POST',
  path: '/link-social',
  body: z.lazy(() =>
    z.object({
      provider: z.string().min(1),
      callbackURL: z.string().optional(),
      errorCallbackURL: z.string().optional(),
      disableRedirect: z.boolean().optional(),
      idToken: idTokenInput.optional(),
      requestSignUp: z.boolean().optional(),
      scopes: scopesInput,
    }),
  ),
  use: [freshSessionMiddleware],
  handler: async (ctx) => {
    const { body, auth, session } = ctx
    const provider = auth.socialProviders.get(body.provider)
    if (!provider) throw new AuthError(CoreErrors.PROVIDER_NOT_FOUND)
    if (ctx.options.account?.accountLinking?.enabled === false) throw new AuthError(CoreErrors.LINKING_NOT_ALLOWED)

    if (!body.idToken) {
      const url = await startFlow(ctx, provider, {
        callbackURL: body.callbackURL,
        errorCallbackURL: body.errorCallbackURL,
        newUserCallbackURL: undefined,
        link: { userId: session.user.id, email: session.user.email },
        requestSignUp: body.requestSignUp === true,
        scopes: body.scopes,
        loginHint: undefined,
      })
      return { url, redirect: body.disableRedirect !== true }
    }

    const { tokens, info } = await idTokenProfile(ctx, provider, body.idToken, body.scopes)

    const refusal = linkRefusal(ctx, provider, info, session.user)
    if (refusal === 'linking_not_allowed') throw new AuthError(CoreErrors.LINKING_NOT_ALLOWED)
    if (refusal === 'different_emails') throw new AuthError(CoreErrors.LINKING_DIFFERENT_EMAILS_NOT_ALLOWED)
    const linked = await linkToUser(ctx, provider, info, tokens, session.user.id)
    if (!linked.ok) {
      throw new AuthError(
        linked.reason === 'account_already_linked_to_different_user' ? CoreErrors.SOCIAL_ACCOUNT_ALREADY_LINKED : CoreErrors.LINKING_FAILED,
      )
    }
    return { url: '', redirect: false, status: true }
  },
})
