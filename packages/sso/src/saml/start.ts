/**
 * @module
 * SP-initiated sign-in (docs/sso.md#saml-sign-in): builds the AuthnRequest
 * for a provider and answers the URL the browser goes to. The request's ID
 * and a RelayState handle are stored server-side (request-store.ts) and
 * the handle is bound to this browser by a signed cookie before the URL is
 * handed out.
 *
 * An IdP with an HTTP-Redirect single sign-on endpoint (or none listed: the
 * `entryPoint`) gets the request in the URL, signed in the query when the
 * provider signs requests. An IdP with only the HTTP-POST binding gets it
 * through our own page, which posts it (post-binding.ts).
 */
import { AuthError, type EndpointContext } from '@gatehouse/core'
import { SsoErrors } from '../errors.js'
import type { SsoLanding, StoredProvider } from '../types.js'
import { parkForm } from './post-binding.js'
import { samlPolicy } from './policy.js'
import { bindBrowser, newHandle, newMessageId, saveRequest } from './request-store.js'
import { SamlConfigError, serviceProvider, type BuildOptions, type ServiceProvider } from './sp.js'

/**
 * @example
 * // in POST /sign-in/sso, for a SAML provider:
 * const url = await startSamlSignIn(ctx, provider, { callbackURL: '/dashboard', errorURL: null, newUserURL: null, requestSignUp: false })
 * return { url, redirect: true }
 */
export async function startSamlSignIn(ctx: EndpointContext, provider: StoredProvider, landing: SsoLanding): Promise<string> {
  const requestId = newMessageId(ctx)
  const relayState = newHandle(ctx)
  const build = (binding: BuildOptions['binding']) => buildOrRefuse(ctx, provider, { messageId: requestId, binding })
  const probe = build('redirect')
  const viaPost = probe.idp.singleSignOn.redirect === null && probe.idp.singleSignOn.post !== null

  let url: string
  if (viaPost) {
    const sp = build('post')
    const message = await sp.saml.getAuthorizeMessageAsync(relayState, undefined, {})
    const fields: Record<string, string> = {}
    for (const [name, value] of Object.entries(message)) if (typeof value === 'string') fields[name] = value
    await parkForm(ctx, relayState, { providerId: provider.providerId, action: probe.idp.singleSignOn.post ?? '', fields })
    url = `${sp.urls.postRequest}?id=${encodeURIComponent(relayState)}`
  } else {
    url = await probe.saml.getAuthorizeUrlAsync(relayState, undefined, {})
  }
  await saveRequest(ctx, requestId, { providerId: provider.providerId, landing, relayState })
  bindBrowser(ctx, relayState)
  return url
}

function buildOrRefuse(ctx: EndpointContext, provider: StoredProvider, options: BuildOptions): ServiceProvider {
  try {
    // The policy's two settings only matter for responses; a request is the same under any.
    return serviceProvider(ctx, provider, samlPolicy(), options)
  } catch (error) {
    if (error instanceof SamlConfigError) {
      ctx.logger.warn('saml: provider not usable for sign-in', { providerId: provider.providerId, reason: error.message })
      throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED)
    }
    throw error
  }
}
