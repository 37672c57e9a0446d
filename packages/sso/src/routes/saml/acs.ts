/**
 * @module
 * POST /sso/saml2/sp/acs/:providerId (docs/sso.md#saml-sign-in): the
 * Assertion Consumer Service. The IdP's page posts the SAMLResponse here
 * cross-site, so core's origin check is off for this route alone (as for
 * the `form_post` OAuth callback): the response is authenticated by the
 * IdP's signature and bound to our stored request, not by where the POST
 * came from. The body is capped at 320 KiB (a 256 KiB response, form-encoded).
 *
 * Nothing is signed in here: the POST carries no SameSite=Lax cookie, so it
 * cannot tell which browser started the sign-in. A valid response is
 * stored under a one-time code and the browser is sent on (303) to the
 * same-site completion step, which checks the binding cookie
 * (routes/saml/acs-complete.ts). Every refusal is a redirect to the
 * request's error URL (else core's error page) with `?error=<code>`.
 */
import { defineEndpoint, errorRedirect } from '@gatehouse/core'
import { z } from 'zod'
import { storeCompletion } from '../../saml/completion.js'
import { spUrls } from '../../saml/urls.js'
import { validateSamlResponse } from '../../saml/validate.js'
import { loadSamlProvider, policyOf } from './provider.js'

const body = z.lazy(() => z.object({ SAMLResponse: z.string().optional(), RelayState: z.string().max(8192).optional() }))

/**
 * @example
 * // The IdP's form: POST /api/auth/sso/saml2/sp/acs/acme  SAMLResponse=PHNhbWxwOl…&RelayState=Xk3…
 * // → 303 /api/auth/sso/saml2/sp/acs/acme/complete?code=…, or 302 /sign-in?error=invalid_signature
 */
export const samlAcs = defineEndpoint({
  method: 'POST',
  path: '/sso/saml2/sp/acs/:providerId',
  body,
  metadata: { skipOriginCheck: true, maxBodyBytes: 320 * 1024 },
  handler: async (ctx) => {
    const provider = await loadSamlProvider(ctx, ctx.params.providerId ?? '')
    if (!provider) return errorRedirect(ctx, 'provider_not_found')
    const result = await validateSamlResponse(ctx, provider, ctx.body ?? {}, policyOf(ctx))
    if (!result.ok) return errorRedirect(ctx, result.code, result.landing?.errorURL)
    const code = await storeCompletion(ctx, {
      providerId: provider.providerId,
      profile: result.profile,
      subject: result.subject,
      landing: result.landing,
      binding: result.binding,
    })
    return ctx.redirect(`${spUrls(ctx, provider).complete}?code=${code}`, 303)
  },
})
