/**
 * @module
 * POST /oauth2/consent {accept, consentId?} (docs/oidc-provider.md#consent):
 * the signed-in user's answer to the consent page. The consent page was
 * given `consent_id` for the request it shows, read what to show from
 * GET /oauth2/consent (routes/consent-request.ts), and posts the id back as
 * `consentId`: the answer applies to that request, one of this browser's
 * pending requests (services/pending-consents.ts), and it must belong to
 * this user. `{accept}` alone (the spec's wire format) is taken only for
 * the one request the page loaded, while no other live request was loaded
 * or started after it; otherwise 400 CONSENT_ID_REQUIRED, since the answer
 * could land on a request a popup opened meanwhile. Accepting re-issues the
 * code and remembers the consent; denying deletes the pending code and
 * sends `access_denied`. Refused: an impersonation session (403
 * IMPERSONATION_NOT_ALLOWED: the consent would be the user's, given by
 * someone else) and a request older than a connected-app revocation of its
 * client. The session is read from the store, never the cookie cache: a
 * revoked session must not approve a grant. A fetch caller (JSON body or
 * Accept) gets `{ redirectURI }`; a form post gets the 302. This is the
 * consent page's own call, not an OAuth endpoint: its errors come in core's
 * `{ code, message }` shape (NO_PENDING_CONSENT, CONSENT_ID_REQUIRED,
 * CLIENT_DISABLED, IMPERSONATION_NOT_ALLOWED), which the client half narrows.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware, type EndpointContext } from '@gatehouse/core'
import { z } from 'zod'
import { OidcErrors } from '../errors.js'
import { issuer } from '../keys/index.js'
import { PENDING_REQUEST_MAX_AGE, type ResolvedOidcOptions } from '../options.js'
import { errorRedirect } from '../services/authorization.js'
import { findClient } from '../services/clients.js'
import { consumeCode, createCode } from '../services/codes.js'
import { recordConsent, revokedSince } from '../services/consents.js'
import { isLive, readPendingConsents, shownRequest, writePendingConsents, type PendingConsent } from '../services/pending-consents.js'
import { withParams } from '../services/redirect-uris.js'
import { sessionFacts } from '../services/session-facts.js'

const accept = z.lazy(() => z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]))

function wantsJson(headers: Headers, isServerCall: boolean): boolean {
  if (isServerCall) return true
  const type = headers.get('content-type') ?? ''
  return type.includes('json') || (headers.get('accept') ?? '').includes('application/json')
}

export function oauth2Consent(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/consent',
    body: z.lazy(() => z.object({ accept, consentId: z.string().max(64).optional() })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      // Before anything is consumed: the admin's answer must not burn the user's pending request either.
      if ((await sessionFacts(ctx.db, ctx.session.session.token)).impersonated) throw new AuthError(OidcErrors.IMPERSONATION_NOT_ALLOWED)
      const entries = readPendingConsents(ctx.cookies)
      const chosen = await choose(ctx, entries, ctx.body.consentId)
      writePendingConsents(
        ctx.cookies,
        entries.filter((entry) => entry !== chosen),
        PENDING_REQUEST_MAX_AGE,
      )
      const userId = ctx.session.user.id
      const consumed = await consumeCode(ctx, 'consent', chosen.token)
      if (!consumed.ok || consumed.grant.userId !== userId) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
      const { grant } = consumed
      // The user ended this client's grant after the request was made (connected apps): it ended with it.
      if (await revokedSince(ctx.db, grant.clientId, userId, grant.issuedAt)) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)

      let next: string
      if (!ctx.body.accept) {
        next = errorRedirect(ctx, grant, 'access_denied', 'The user denied the request')
      } else {
        const client = await findClient(ctx.db, options, grant.clientId)
        if (!client || client.disabled) throw new AuthError(OidcErrors.CLIENT_DISABLED)
        const code = await createCode(ctx, 'code', { ...grant, issuedAt: ctx.clock.now().getTime() }, options.codeExpiresIn)
        await recordConsent(ctx.db, grant.clientId, userId, grant.scopes)
        next = withParams(grant.redirectURI, { code, state: grant.state, iss: issuer(ctx) })
      }
      return wantsJson(ctx.headers, ctx.isServerCall) ? { redirectURI: next } : ctx.redirect(next)
    },
  })
}

/**
 * The request the answer is for: the one named by `consentId`, else the one
 * request this browser's consent page loaded, if that is unambiguous
 * (answered and expired requests do not count).
 */
async function choose(ctx: EndpointContext, entries: readonly PendingConsent[], consentId: string | undefined): Promise<PendingConsent> {
  if (consentId !== undefined) {
    const named = entries.find((entry) => entry.id !== '' && entry.id === consentId)
    if (!named) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
    return named
  }
  const live: PendingConsent[] = []
  for (const entry of entries) if (await isLive(ctx.db, ctx.clock, entry.token)) live.push(entry)
  const chosen = shownRequest(live)
  if (chosen === 'none') throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
  if (chosen === 'ambiguous') throw new AuthError(OidcErrors.CONSENT_ID_REQUIRED)
  return chosen
}
