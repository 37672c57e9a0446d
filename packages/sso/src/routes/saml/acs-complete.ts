/**
 * @module
 * GET /sso/saml2/sp/acs/:providerId/complete?code= (docs/sso.md#saml-sign-in):
 * where the ACS sends the browser after a valid response. A top-level GET
 * navigation carries the browser's SameSite=Lax cookies, so here the sign-in
 * is bound to the browser that started it: the one-time code (60 s) is
 * consumed, and its RelayState handle must be the one in this browser's
 * signed `sso_saml` cookie. A response captured or obtained by someone else
 * (their own sign-in's response posted through a victim's browser, login
 * CSRF; another browser's request) stops here with `invalid_state`.
 * IdP-initiated sign-ins, when allowed, have no binding to check: that is
 * their documented risk (docs/sso.md#idp-initiated-sign-in).
 *
 * Then the provider is read again (deleted or changed since: refused) and
 * the profile signed in through `completeSsoSignIn`, which applies the
 * domain rules, provisions and answers the final redirect. The SAML subject
 * is remembered for single logout (saml/subjects.ts).
 */
import { defineEndpoint, errorRedirect, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { takeCompletion } from '../../saml/completion.js'
import { takeBrowserBinding } from '../../saml/request-store.js'
import { rememberSubject } from '../../saml/subjects.js'
import { completeSsoSignIn } from '../../services/provision.js'
import { loadSamlProvider } from './provider.js'

const query = z.lazy(() => z.object({ code: z.string().max(64).optional() }))

/**
 * @example
 * // GET /api/auth/sso/saml2/sp/acs/acme/complete?code=… (with the sso_saml cookie)
 * // → 302 /dashboard with the session cookie, or 302 /sign-in?error=invalid_state
 */
export const samlAcsComplete = defineEndpoint({
  method: 'GET',
  path: '/sso/saml2/sp/acs/:providerId/complete',
  query,
  handler: async (ctx) => {
    const providerId = ctx.params.providerId ?? ''
    const completion = await takeCompletion(ctx, ctx.query.code ?? '', providerId)
    if (!completion) return errorRedirect(ctx, 'invalid_state')
    const { landing } = completion
    if (completion.binding !== null && !takeBrowserBinding(ctx, completion.binding)) {
      ctx.logger.warn('saml: sign-in completed in another browser than the one that started it', { providerId })
      return errorRedirect(ctx, 'invalid_state', landing.errorURL)
    }
    const provider = await loadSamlProvider(ctx, providerId)
    if (!provider) return errorRedirect(ctx, 'provider_not_found', landing.errorURL)
    const response = await completeSsoSignIn(ctx, provider, completion.profile, landing)
    const account = await ctx.db.findOne<Row & { userId: string }>({
      model: 'account',
      where: [
        { field: 'providerId', value: provider.providerId },
        { field: 'accountId', value: completion.profile.accountId },
      ],
    })
    if (account) await rememberSubject(ctx, provider.providerId, account.userId, completion.subject)
    return response
  },
})
