/**
 * @module
 * GET /sso/saml2/sp/authn-request/:providerId?id= (docs/sso.md#saml-bindings):
 * the page that posts a parked AuthnRequest to an IdP that takes only the
 * HTTP-POST binding (saml/post-binding.ts). It renders once, and only in
 * the browser that started the sign-in (its signed `sso_saml` cookie holds
 * the same handle); anything else lands on the error page with
 * `invalid_state`.
 */
import { defineEndpoint, errorRedirect } from '@gatehouse/core'
import { z } from 'zod'
import { autoPostPage, takeForm } from '../../saml/post-binding.js'
import { isBrowserBound } from '../../saml/request-store.js'

const query = z.lazy(() => z.object({ id: z.string().max(64).optional() }))

/**
 * @example
 * // POST /sign-in/sso answered { url: 'https://app.example.com/api/auth/sso/saml2/sp/authn-request/acme?id=Xk3…', redirect: true }
 * // GET that URL → 200, a form that posts SAMLRequest and RelayState to the IdP
 */
export const samlAuthnRequestPage = defineEndpoint({
  method: 'GET',
  path: '/sso/saml2/sp/authn-request/:providerId',
  query,
  handler: async (ctx) => {
    const handle = ctx.query.id ?? ''
    if (!handle || !isBrowserBound(ctx, handle)) return errorRedirect(ctx, 'invalid_state')
    const form = await takeForm(ctx, handle, ctx.params.providerId ?? '')
    if (!form) return errorRedirect(ctx, 'invalid_state')
    return autoPostPage(form, ctx.random.string(24))
  },
})
