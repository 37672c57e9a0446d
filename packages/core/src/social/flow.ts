/**
 * @module
 * Starting a redirect flow (sign-in/social, link-social) and ending one in a
 * redirect (the callback). Redirect targets were checked by the endpoint
 * layer when the flow started (relative paths or trusted origins,
 * docs/security.md#redirect-targets-securityredirectsts) and are read back
 * from the stored state only, never from the callback's own query.
 */
import type { EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { appendQueryParam } from '../security/append-query.js'
import type { ConfiguredProvider } from '../types/social.js'
import { authorizationServer, authorizationUrl, requestedScopes, usesOpenId } from './protocol.js'
import { createState, type OAuthStateData } from './state.js'

export interface FlowStart {
  readonly callbackURL: string | undefined
  readonly errorCallbackURL: string | undefined
  readonly newUserCallbackURL: string | undefined
  readonly link: OAuthStateData['link']
  readonly requestSignUp: boolean
  readonly scopes: readonly string[] | undefined
  readonly loginHint: string | undefined
}

/**
 * Stores the state, sets the state cookie and returns the provider's authorization URL.
 * A discovery document that cannot be fetched answers 503 "Provider is unavailable".
 *
 * @example
 * const url = await startFlow(ctx, provider, { callbackURL: '/dashboard', errorCallbackURL: undefined, newUserCallbackURL: undefined, link: null, requestSignUp: false, scopes: undefined, loginHint: undefined })
 */
export async function startFlow(ctx: EndpointContext, provider: ConfiguredProvider, start: FlowStart): Promise<string> {
  let server
  try {
    server = await authorizationServer(provider, ctx.clock)
  } catch (error) {
    ctx.logger.warn('provider discovery failed', { provider: provider.id, error: error instanceof Error ? error.name : typeof error })
    throw new AuthError(CoreErrors.PROVIDER_UNAVAILABLE)
  }
  const scopes = requestedScopes(provider, start.scopes)
  const { state, data } = await createState(
    ctx,
    {
      providerId: provider.id,
      callbackURL: start.callbackURL || '/',
      errorURL: start.errorCallbackURL || null,
      newUserURL: start.newUserCallbackURL || null,
      link: start.link,
      requestSignUp: start.requestSignUp,
      scopes,
    },
    { nonce: usesOpenId(provider, scopes) },
  )
  return authorizationUrl(provider, server, {
    state,
    codeVerifier: data.codeVerifier,
    nonce: data.nonce,
    scopes,
    ...(start.loginHint ? { loginHint: start.loginHint } : {}),
  })
}

/** The default error page: `{baseURL}/error?error=<code>` (docs/core.md#pages). */
export function errorPageURL(ctx: Pick<EndpointContext, 'auth'>): string {
  return `${ctx.auth.baseURL}/error`
}

/**
 * A 302 to the flow's error URL (or the error page) with `?error=<code>`.
 *
 * @example
 * return errorRedirect(ctx, 'no_code', state.errorURL) // 302 /api/auth/error?error=no_code
 */
export function errorRedirect(ctx: Pick<EndpointContext, 'auth' | 'redirect'>, code: string, errorURL?: string | null): Response {
  return ctx.redirect(appendQueryParam(errorURL || errorPageURL(ctx), 'error', code))
}
