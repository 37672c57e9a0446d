/**
 * @module
 * GET|POST /sso/saml2/sp/slo/:providerId (docs/sso.md#saml-single-logout):
 * the SP's single logout service, for both bindings. The IdP sends here,
 * through the browser (so cross-site, and exempt from the origin check like
 * the ACS; the messages are authenticated by the IdP's signature):
 *
 * - a LogoutRequest (IdP-initiated logout): it must be signed by the
 *   provider's certificate (in the query for HTTP-Redirect, enveloped for
 *   HTTP-POST; an unsigned one is refused, which node-saml alone would let
 *   through on the redirect binding), come from the provider's IdP and be
 *   within its NotOnOrAfter. Every session of the user it names that was
 *   signed in through this provider ends (not their other sessions), and
 *   the IdP gets a LogoutResponse (HTTP-Redirect, signed when we have a key).
 * - a LogoutResponse to our own LogoutRequest (routes/saml/logout.ts): signed,
 *   Success, answering a LogoutRequest we stored for this provider; the
 *   browser goes on to the callbackURL that request stored. The local
 *   session ended when the request was sent.
 */
import {
  AuthError,
  clearSessionCookies,
  defineEndpoint,
  deleteSessions,
  errorRedirect,
  hashSessionToken,
  readSessionToken,
  type EndpointContext,
  type Row,
} from '@gatehouse/core'
import type { Profile } from '@node-saml/node-saml'
import { inflateRawSync } from 'node:zlib'
import { z } from 'zod'
import { SamlErrors } from '../../saml/errors.js'
import { consumeRequest } from '../../saml/request-store.js'
import { readLogoutResponse, STATUS_SUCCESS } from '../../saml/response-envelope.js'
import type { ServiceProvider } from '../../saml/sp.js'
import { userOfNameId } from '../../saml/subjects.js'
import type { StoredProvider } from '../../types.js'
import { loadSamlProvider, routeServiceProvider } from './provider.js'

const fields = z.lazy(() =>
  z.object({
    SAMLRequest: z.string().optional(),
    SAMLResponse: z.string().optional(),
    RelayState: z.string().max(8192).optional(),
    SigAlg: z.string().optional(),
    Signature: z.string().optional(),
  }),
)

type Fields = z.output<typeof fields>

/**
 * @example
 * // The IdP signs a user out: GET /api/auth/sso/saml2/sp/slo/acme?SAMLRequest=…&SigAlg=…&Signature=…
 * // → 302 https://idp.example.com/slo?SAMLResponse=…&SigAlg=…&Signature=…
 */
export const samlSlo = defineEndpoint({
  method: ['GET', 'POST'],
  path: '/sso/saml2/sp/slo/:providerId',
  query: fields,
  body: z.lazy(() => fields.optional()),
  metadata: { skipOriginCheck: true, maxBodyBytes: 128 * 1024 },
  handler: async (ctx) => {
    const message: Fields = ctx.method === 'POST' ? (ctx.body ?? {}) : ctx.query
    const provider = await loadSamlProvider(ctx, ctx.params.providerId ?? '')
    if (!provider) throw new AuthError(SamlErrors.SAML_PROVIDER_NOT_FOUND)
    const sp = routeServiceProvider(ctx, provider, { purpose: 'logout' })
    if (message.SAMLRequest) return logoutRequest(ctx, provider, sp, message)
    if (message.SAMLResponse) return logoutResponse(ctx, provider, sp, message)
    throw new AuthError(SamlErrors.INVALID_LOGOUT_REQUEST)
  },
})

async function logoutRequest(ctx: EndpointContext, provider: StoredProvider, sp: ServiceProvider, message: Fields): Promise<Response> {
  let profile: Profile | null
  try {
    profile = (await verify(ctx, sp, message, 'SAMLRequest')).profile
  } catch (error) {
    ctx.logger.warn('saml: LogoutRequest refused', { providerId: provider.providerId, reason: reason(error) })
    throw new AuthError(SamlErrors.INVALID_LOGOUT_REQUEST)
  }
  if (!profile?.nameID) throw new AuthError(SamlErrors.INVALID_LOGOUT_REQUEST)
  const ended = await endProviderSessions(ctx, provider, profile.nameID)
  ctx.logger.info('saml: IdP-initiated logout', { providerId: provider.providerId, sessions: ended })
  if (!sp.idp.singleLogout.redirect) return ctx.redirect(ctx.auth.origin, 302)
  return ctx.redirect(await sp.saml.getLogoutResponseUrlAsync(profile, message.RelayState ?? '', {}, true), 302)
}

async function logoutResponse(ctx: EndpointContext, provider: StoredProvider, sp: ServiceProvider, message: Fields): Promise<Response> {
  let inResponseTo: string | null = null
  try {
    const verified = await verify(ctx, sp, message, 'SAMLResponse')
    if (!verified.loggedOut) throw new Error('not a LogoutResponse')
    const facts = readLogoutResponse(decode(message.SAMLResponse ?? '', ctx.method === 'GET'))
    if (facts?.statusCode !== STATUS_SUCCESS) throw new Error(`status ${facts?.statusCode ?? 'missing'}`)
    inResponseTo = facts.inResponseTo
  } catch (error) {
    ctx.logger.warn('saml: LogoutResponse refused', { providerId: provider.providerId, reason: reason(error) })
    return errorRedirect(ctx, 'invalid_logout_response')
  }
  const request = inResponseTo ? await consumeRequest(ctx, inResponseTo, provider.providerId, 'logout') : null
  if (!request) return errorRedirect(ctx, 'invalid_logout_response')
  return ctx.redirect(request.landing.callbackURL, 302)
}

/**
 * node-saml's checks for either binding. On HTTP-Redirect the signature is
 * in the query, over its raw bytes; node-saml skips the check when there is
 * none, so an unsigned message is refused here first.
 */
async function verify(ctx: EndpointContext, sp: ServiceProvider, message: Fields, field: 'SAMLRequest' | 'SAMLResponse') {
  const value = message[field] ?? ''
  if (ctx.method === 'POST') {
    return field === 'SAMLRequest' ? sp.saml.validatePostRequestAsync({ SAMLRequest: value }) : sp.saml.validatePostResponseAsync({ SAMLResponse: value })
  }
  if (!message.Signature || !message.SigAlg) throw new Error('unsigned message on the redirect binding')
  // Bounded before node-saml inflates it without a limit (a deflate bomb in a query string).
  decode(value, true)
  const url = ctx.request?.url
  if (!url) throw new Error('no request URL')
  const container: Record<string, string> = {}
  for (const [name, entry] of Object.entries(message)) if (typeof entry === 'string') container[name] = entry
  return sp.saml.validateRedirectAsync(container, new URL(url).search.slice(1))
}

/** The XML of a SAML message: base64, deflated on the HTTP-Redirect binding. */
function decode(encoded: string, deflated: boolean): string {
  const bytes = Buffer.from(encoded, 'base64')
  return (deflated ? inflateRawSync(bytes, { maxOutputLength: 1024 * 1024 }) : bytes).toString('utf8')
}

/**
 * Ends the sessions of the user `nameID` names that were signed in through
 * this provider; clears this browser's cookies when its session is among them.
 */
async function endProviderSessions(ctx: EndpointContext, provider: StoredProvider, nameID: string): Promise<number> {
  let userId = await userOfNameId(ctx, provider.providerId, nameID)
  if (!userId) {
    const account = await ctx.db.findOne<Row & { userId: string }>({
      model: 'account',
      where: [
        { field: 'providerId', value: provider.providerId },
        { field: 'accountId', value: nameID },
      ],
    })
    userId = account?.userId ?? null
  }
  if (!userId) return 0
  const sessions = await ctx.db.findMany<Row & { token: string }>({
    model: 'session',
    where: [
      { field: 'userId', value: userId },
      { field: 'ssoProviderId', value: provider.providerId },
    ],
  })
  const tokens = sessions.map((session) => session.token)
  const own = readSessionToken(ctx)
  if (own && tokens.includes(hashSessionToken(own))) clearSessionCookies(ctx)
  return deleteSessions(ctx.auth, tokens)
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : typeof error).slice(0, 200)
}
