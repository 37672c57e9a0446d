/**
 * @module
 * POST /sign-in/social (docs/social.md#signing-in). Without `idToken`:
 * stores a state, sets the state cookie and answers the provider's
 * authorization URL, `{ url, redirect }` (`redirect` false with
 * `disableRedirect`). With `idToken`: verifies the token against the
 * provider's key set and signs in at once, `{ redirect: false, token, url,
 * user }` with the session cookie. `callbackURL`, `newUserCallbackURL` and
 * `errorCallbackURL` were checked by the endpoint layer (relative or trusted).
 * `scopes` and `loginHint` are capped (docs/social.md#input-limits): both are
 * stored in the state row and forwarded to the provider.
 */
import { z } from 'zod'
import { publicRow } from '../../db/output.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { MAX_LOGIN_HINT_LENGTH } from '../../endpoint/input-limits.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession } from '../../session/session-store.js'
import { signInWithProvider } from '../../social/accounts.js'
import { startFlow } from '../../social/flow.js'
import { idTokenProfile } from '../../social/id-token.js'
import { withEmail } from '../../social/user-info.js'
import { idTokenInput, scopesInput } from './schemas.js'

/**
 * @example
 * const { url } = await auth.api.signInSocial({ body: { provider: 'github', callbackURL: '/dashboard' } })
 */
export const signInSocial = defineEndpoint({
  method: 'POST',
  path: '/sign-in/social',
  body: z.lazy(() =>
    z.object({
      provider: z.string().min(1),
      callbackURL: z.string().optional(),
      newUserCallbackURL: z.string().optional(),
      errorCallbackURL: z.string().optional(),
      disableRedirect: z.boolean().optional(),
      idToken: idTokenInput.optional(),
      scopes: scopesInput,
      requestSignUp: z.boolean().optional(),
      loginHint: z.string().max(MAX_LOGIN_HINT_LENGTH).optional(),
    }),
  ),
  handler: async (ctx) => {
    const { body, auth } = ctx
    const provider = auth.socialProviders.get(body.provider)
    if (!provider) throw new AuthError(CoreErrors.PROVIDER_NOT_FOUND)

    if (!body.idToken) {
      const url = await startFlow(ctx, provider, {
        callbackURL: body.callbackURL,
        errorCallbackURL: body.errorCallbackURL,
        newUserCallbackURL: body.newUserCallbackURL,
        link: null,
        requestSignUp: body.requestSignUp === true,
        scopes: body.scopes,
        loginHint: body.loginHint,
      })
      return { url, redirect: body.disableRedirect !== true }
    }

    const { tokens, info } = await idTokenProfile(ctx, provider, body.idToken, body.scopes)
    const profile = withEmail(info)
    if (!profile) throw new AuthError(CoreErrors.USER_EMAIL_NOT_FOUND)

    const outcome = await signInWithProvider(ctx, provider, profile, tokens, { requestSignUp: body.requestSignUp === true })
    if (!outcome.ok) {
      if (outcome.reason === 'account_not_linked') throw new AuthError(CoreErrors.LINKING_NOT_ALLOWED)
      if (outcome.reason === 'signup_disabled') throw new AuthError(CoreErrors.SIGN_UP_DISABLED)
      throw new AuthError(CoreErrors.FAILED_TO_CREATE_USER)
    }
    const session = await createSession(auth, outcome.user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), amr: ['fed'] }).catch(
      (error: unknown) => {
        ctx.logger.error('social sign-in: session not created', { error: error instanceof Error ? error.name : typeof error })
        throw new AuthError(CoreErrors.FAILED_TO_CREATE_SESSION)
      },
    )
    setSessionCookies(ctx, session, { dontRemember: false })
    return {
      redirect: false as const,
      token: session.token,
      url: body.callbackURL,
      user: publicRow(auth.schema, 'user', outcome.user),
    }
  },
})
