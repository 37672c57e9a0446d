/**
 * @module
 * GET /oauth2/consent?consent_id=… (docs/oidc-provider.md#consent): what the
 * consent page shows, read from the server, for the pending request its URL
 * names. The page's own query (`client_id`, `scope`) is anyone's to write: a
 * page that showed it could display a trusted client while the answer goes
 * to another. So the page shows only this answer: the client's id and name,
 * whether the operator registered it (`verified`) or anyone did (dynamic
 * registration), its logo and its home, policy and terms pages when they
 * are https URLs, and the scopes requested.
 *
 * The session is read from the store, the request must be this user's, still
 * pending, and not ended by a connected-app revocation since; reading it
 * marks it shown in this browser's pending-consent cookie, which is what an
 * answer without `consentId` may then approve (services/pending-consents.ts).
 * Errors come in core's `{ code, message }` shape, for the client half.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OidcErrors } from '../errors.js'
import { PENDING_REQUEST_MAX_AGE, type OAuthClient, type ResolvedOidcOptions } from '../options.js'
import { findClient } from '../services/clients.js'
import { peekCode } from '../services/codes.js'
import { revokedSince } from '../services/consents.js'
import { markShown, readPendingConsents, writePendingConsents } from '../services/pending-consents.js'
import { checkMetadataURI } from '../services/redirect-uris.js'
import { sessionFacts } from '../services/session-facts.js'

/** A metadata URI as the page may link it: https and well-formed today (rows from before registration checked them included), else null. */
function httpsURI(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const checked = checkMetadataURI(value)
  return checked.ok ? checked.href : null
}

/** The client as the consent page shows it. */
function shownClient(client: OAuthClient) {
  const metadata = client.metadata ?? {}
  return {
    clientId: client.clientId,
    name: client.name,
    verified: client.verified,
    icon: httpsURI(client.icon),
    clientURI: httpsURI(metadata.client_uri),
    policyURI: httpsURI(metadata.policy_uri),
    tosURI: httpsURI(metadata.tos_uri),
  }
}

/**
 * @example
 * await auth.api.oauth2ConsentRequest({ query: { consent_id }, headers })
 * // { consentId, scopes: ['openid', 'email'], client: { clientId, name: 'Notes', verified: true, icon: null, clientURI: null, policyURI: null, tosURI: null } }
 */
export function oauth2ConsentRequest(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/oauth2/consent',
    query: z.lazy(() => z.object({ consent_id: z.string().min(1).max(64) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      ctx.responseHeaders.set('cache-control', 'no-store')
      const consentId = ctx.query.consent_id
      const entries = readPendingConsents(ctx.cookies)
      const entry = entries.find((candidate) => candidate.id !== '' && candidate.id === consentId)
      if (!entry) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
      const grant = await peekCode(ctx, 'consent', entry.token)
      const userId = ctx.session.user.id
      if (!grant || grant.userId !== userId) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
      if (await revokedSince(ctx.db, grant.clientId, userId, grant.issuedAt)) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
      if ((await sessionFacts(ctx.db, ctx.session.session.token)).impersonated) throw new AuthError(OidcErrors.IMPERSONATION_NOT_ALLOWED)
      const client = await findClient(ctx.db, options, grant.clientId)
      if (!client || client.disabled) throw new AuthError(OidcErrors.CLIENT_DISABLED)
      writePendingConsents(ctx.cookies, markShown(entries, entry.id), PENDING_REQUEST_MAX_AGE)
      return { consentId, scopes: [...grant.scopes], client: shownClient(client) }
    },
  })
}
