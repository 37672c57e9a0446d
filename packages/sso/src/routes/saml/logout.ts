/**
 * @module
 * POST /sso/saml2/logout/:providerId (docs/sso.md#saml-single-logout): the
 * signed-in user leaves the application and the IdP. The local session ends
 * at once (its cookies cleared, its row and copies deleted); the browser is
 * sent (302) to the IdP's single logout service with a LogoutRequest naming
 * the SAML subject this user last signed in as through the provider
 * (saml/subjects.ts; else the account's ID, else the email), signed when the
 * provider has a key. The request is stored for 10 minutes with where to go
 * after, and the IdP's LogoutResponse comes back to the SLO route
 * (routes/saml/slo.ts). An IdP without a single logout service: 400.
 * `callbackURL` was checked by the endpoint layer (relative or trusted).
 */
import { AuthError, clearSessionCookies, defineEndpoint, deleteSessions, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { SamlErrors } from '../../saml/errors.js'
import { newHandle, newMessageId, saveRequest } from '../../saml/request-store.js'
import { NAMEID_EMAIL } from '../../saml/sp.js'
import { subjectOfUser } from '../../saml/subjects.js'
import { loadSamlProvider, routeServiceProvider } from './provider.js'

const body = z.lazy(() => z.object({ callbackURL: z.string().optional() }))

/**
 * @example
 * // From the app, signed in: POST /api/auth/sso/saml2/logout/acme { "callbackURL": "/signed-out" }
 * // → 302 https://idp.example.com/slo?SAMLRequest=…&RelayState=…
 */
export const samlLogout = defineEndpoint({
  method: 'POST',
  path: '/sso/saml2/logout/:providerId',
  body: z.lazy(() => body.optional()),
  use: [sessionMiddleware],
  handler: async (ctx) => {
    const provider = await loadSamlProvider(ctx, ctx.params.providerId ?? '')
    if (!provider?.saml) throw new AuthError(SamlErrors.SAML_PROVIDER_NOT_FOUND)
    const messageId = newMessageId(ctx)
    const sp = routeServiceProvider(ctx, provider, { purpose: 'logout', messageId })
    if (!sp.idp.singleLogout.redirect) throw new AuthError(SamlErrors.IDP_SLO_NOT_SUPPORTED)

    const { user } = ctx.session
    const subject = (await subjectOfUser(ctx, provider.providerId, user.id)) ?? (await accountSubject(ctx, provider.providerId, user.id))
    const relayState = newHandle(ctx)
    await saveRequest(
      ctx,
      messageId,
      {
        providerId: provider.providerId,
        landing: { callbackURL: ctx.body?.callbackURL || '/', errorURL: null, newUserURL: null, requestSignUp: false },
        relayState,
      },
      'logout',
    )
    const url = await sp.saml.getLogoutUrlAsync(
      {
        issuer: sp.urls.entityId,
        nameID: subject?.nameID ?? user.email,
        nameIDFormat: subject?.nameIDFormat ?? provider.saml.identifierFormat ?? NAMEID_EMAIL,
        ...(subject?.sessionIndex ? { sessionIndex: subject.sessionIndex } : {}),
      },
      relayState,
      {},
    )
    // Cleared first: a revocation answered 503 (secondary storage down) still signs this browser out.
    clearSessionCookies(ctx)
    await deleteSessions(ctx.auth, [ctx.session.session.token])
    return ctx.redirect(url, 302)
  },
})

async function accountSubject(ctx: Parameters<typeof subjectOfUser>[0], providerId: string, userId: string) {
  const account = await ctx.db.findOne<Row & { accountId: string }>({
    model: 'account',
    where: [
      { field: 'providerId', value: providerId },
      { field: 'userId', value: userId },
    ],
  })
  return account ? { nameID: account.accountId, nameIDFormat: null, sessionIndex: null } : null
}
