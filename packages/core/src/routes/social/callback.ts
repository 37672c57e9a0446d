/**
 * @module
 * GET /callback/{providerId} (docs/social.md#the-callback): where the provider
 * sends the browser back. It always ends in a redirect: to the flow's
 * callbackURL (newUserCallbackURL for a new user), or to its
 * errorCallbackURL, else the error page, with `?error=<code>`.
 *
 * Order: the state must be present and equal the browser's signed state
 * cookie (else nothing is consumed), then the stored state is consumed once;
 * only then are the provider's error, the code, the token exchange and the
 * profile looked at, so nobody without the browser's cookie can make this
 * route do anything but show an error.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession } from '../../session/session-store.js'
import { resolveSession } from '../../session/resolve-session.js'
import { linkRefusal, linkToUser, signInWithProvider } from '../../social/accounts.js'
import { errorRedirect } from '../../social/flow.js'
import { authorizationServer, exchangeCode, providerRequestContext, type ExchangedTokens } from '../../social/protocol.js'
import { consumeState, type OAuthStateData } from '../../social/state.js'
import type { ConfiguredProvider } from '../../types/social.js'
import { fetchUserInfo, withEmail } from '../../social/user-info.js'

/** A provider's `error` is passed on only when it looks like an RFC 6749 §4.1.2.1 code. */
const ERROR_CODE = /^[a-z0-9_]{1,64}$/

/**
 * @example
 * // The provider redirects the browser to:
 * // GET /api/auth/callback/github?code=…&state=…
 */
export const callbackOAuth = defineEndpoint({
  method: 'GET',
  path: '/callback/:id',
  handler: async (ctx) => {
    const params = callbackParams(ctx.query)
    if (!params) return errorRedirect(ctx, 'invalid_callback_request')
    const state = params.get('state')
    if (!state) return errorRedirect(ctx, 'state_not_found')

    let data: OAuthStateData | null = null
    try {
      const checked = await consumeState(ctx, state)
      if (!checked.ok) return errorRedirect(ctx, 'please_restart_the_process', checked.reason === 'expired' ? checked.data.errorURL : null)
      data = checked.data
      return await finish(ctx, params, state, data)
    } catch (error) {
      // Even a database fault ends in a redirect, not a JSON 500 in the middle of a browser flow.
      ctx.logger.error('social callback failed', { error: error instanceof Error ? error.name : typeof error })
      return errorRedirect(ctx, 'internal_server_error', data?.errorURL)
    }
  },
})

async function finish(ctx: EndpointContext, params: URLSearchParams, state: string, data: OAuthStateData): Promise<Response> {
  const fail = (code: string) => errorRedirect(ctx, code, data.errorURL)
  const providerId = ctx.params.id
  // A state is good only for the provider it was issued for.
  if (providerId !== data.providerId) return fail('invalid_callback_request')
  const provider = ctx.auth.socialProviders.get(providerId)
  if (!provider) return fail('oauth_provider_not_found')

  const providerError = params.get('error')
  if (providerError) return fail(ERROR_CODE.test(providerError) ? providerError : 'invalid_callback_request')
  if (!params.get('code')) return fail('no_code')

  const exchanged = await exchange(ctx, provider, params, state, data)
  if (!exchanged) return fail('invalid_code')
  const info = await fetchUserInfo(provider, exchanged.tokens, {
    clock: ctx.clock,
    logger: ctx.logger,
    idTokenClaims: exchanged.idTokenClaims,
    callbackParams: params,
  })
  if (!info) return fail('unable_to_get_user_info')

  if (data.link) {
    // The linking user must still be the one signed in in this browser.
    const session = await resolveSession(ctx, { disableCookieCache: true })
    if (!session || session.user.id !== data.link.userId) return fail('unable_to_link_account')
    const refusal = linkRefusal(ctx, provider, info, { email: data.link.email })
    if (refusal) return fail('unable_to_link_account')
    const linked = await linkToUser(ctx, provider, info, exchanged.tokens, data.link.userId)
    if (!linked.ok) return fail(linked.reason)
    return ctx.redirect(data.callbackURL)
  }

  const profile = withEmail(info)
  if (!profile) return fail('email_not_found')
  const outcome = await signInWithProvider(ctx, provider, profile, exchanged.tokens, { requestSignUp: data.requestSignUp })
  if (!outcome.ok) return fail(outcome.reason)
  let session
  try {
    session = await createSession(ctx.auth, outcome.user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), amr: ['fed'] })
  } catch (error) {
    ctx.logger.error('social sign-in: session not created', { error: error instanceof Error ? error.name : typeof error })
    return fail('unable_to_create_session')
  }
  // A social sign-in has no remember-me choice: a do-not-remember cookie of an earlier sign-in does not carry over.
  setSessionCookies(ctx, session, { dontRemember: false })
  return ctx.redirect(outcome.isNewUser && data.newUserURL ? data.newUserURL : data.callbackURL)
}

/** The code exchange; null when the provider refused it or could not be reached in time. */
async function exchange(
  ctx: EndpointContext,
  provider: ConfiguredProvider,
  params: URLSearchParams,
  state: string,
  data: OAuthStateData,
): Promise<ExchangedTokens | null> {
  try {
    const server = await authorizationServer(provider, ctx.clock)
    const requestContext = providerRequestContext({
      clock: ctx.clock,
      idTokenClaims: null,
      userInfoEndpoint: server.userinfo_endpoint ?? null,
      callbackParams: params,
    })
    return await exchangeCode(
      provider,
      server,
      params,
      { state, codeVerifier: data.codeVerifier, nonce: data.nonce, scopes: data.scopes },
      requestContext,
      ctx.clock,
    )
  } catch (error) {
    // Names only: the messages of protocol errors may quote the provider's response.
    ctx.logger.warn('social callback: code exchange failed', {
      provider: provider.id,
      error: error instanceof Error ? error.name : typeof error,
      code: typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined,
    })
    return null
  }
}

/** The query as parameters; null when a parameter is repeated or not text (a malformed or forged callback). */
function callbackParams(query: unknown): URLSearchParams | null {
  const params = new URLSearchParams()
  if (query === undefined || query === null) return params
  if (typeof query !== 'object') return null
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') return null
    params.set(name, value)
  }
  return params
}
