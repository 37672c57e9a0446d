/**
 * @module
 * POST /sign-in/social (docs/social.md#signing-in). Without `idToken`:
 * stores a state, sets the state cookie and answers the provider's
 * authorization URL, `{ url, redirect }` (`redirect` false with
 * `disableRedirect`). With `idToken`: verifies the token against the
 * provider's key set and signs in at once, `{ redirect: false, token, url,
 * user }` with the session cookie. `callbackURL`, `newUserCallbackURL` and
 * `errorCallbackURL` were checked by the endpoint layer (relative or trusted).
 */
import { z } from 'zod'
import { publicRow } from '../../db/output.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession } from '../../session/session-store.js'
import { signInWithProvider } from '../../social/accounts.js'
import { startFlow } from '../../social/flow.js'
import { supportsIdTokenSignIn, verifyIdToken } from '../../social/id-token.js'
import { requestedScopes } from '../../social/protocol.js'
import { fetchUserInfo, idTokenTokens, withEmail } from '../../social/user-info.js'
import { idTokenInput, scopesInput } from './schemas.js'

/**
 * @example
 * const { url } = await auth.api.signInSocial({ body: { provider: 'github', callbackURL: '/dashboard' } })
 */
export const signInSocial = defineEndpoint({
  method: 'POST',
  path: '/sign-in/social',
  body: z.object({
    provider: z.string().min(1),
    callbackURL: z.string().optional(),
    newUserCallbackURL: z.string().optional(),
    errorCallbackURL: z.string().optional(),
    disableRedirect: z.boolean().optional(),
    idToken: idTokenInput.optional(),
    scopes: scopesInput,
    requestSignUp: z.boolean().optional(),
    loginHint: z.string().optional(),
  }),
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

    if (!supportsIdTokenSignIn(provider)) throw new AuthError(CoreErrors.ID_TOKEN_NOT_SUPPORTED)
    const check = await verifyIdToken(provider, body.idToken.token, body.idToken.nonce, ctx.clock)
    if (!check.ok) throw new AuthError(check.reason === 'unsupported' ? CoreErrors.ID_TOKEN_NOT_SUPPORTED : CoreErrors.INVALID_TOKEN)
    const tokens = idTokenTokens(body.idToken, requestedScopes(provider, body.scopes))
    const info = await fetchUserInfo(provider, tokens, { clock: ctx.clock, logger: ctx.logger, idTokenClaims: check.claims, callbackParams: null })
    if (!info) throw new AuthError(CoreErrors.FAILED_TO_GET_USER_INFO)
    // The verified token names the account; a profile read with a client-supplied access token must be the same one.
    if (info.id !== check.claims.sub) throw new AuthError(CoreErrors.INVALID_TOKEN)
    const profile = withEmail(info)
    if (!profile) throw new AuthError(CoreErrors.USER_EMAIL_NOT_FOUND)

    const outcome = await signInWithProvider(ctx, provider, profile, tokens, { requestSignUp: body.requestSignUp === true })
    if (!outcome.ok) {
      if (outcome.reason === 'account_not_linked') throw new AuthError(CoreErrors.LINKING_NOT_ALLOWED)
      if (outcome.reason === 'signup_disabled') throw new AuthError(CoreErrors.SIGN_UP_DISABLED)
      throw new AuthError(CoreErrors.FAILED_TO_CREATE_USER)
    }
    const session = await createSession(auth, outcome.user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent') }).catch(
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
