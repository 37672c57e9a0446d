/**
 * @module
 * POST /oauth2/consent {accept, consentId?} (docs/oidc-provider.md#consent):
 * the signed-in user's answer to the consent page. The consent page was
 * given `consent_id` for the request it shows and posts it back as
 * `consentId`: the answer applies to that request, one of this browser's
 * pending requests (services/pending-consents.ts), and it must belong to
 * this user. `{accept}` alone is taken only while exactly one request is
 * pending; with several, 400 CONSENT_ID_REQUIRED, since the answer could
 * otherwise land on a request another page opened meanwhile. Accepting
 * re-issues the code and remembers the consent; denying deletes the pending
 * code and sends `access_denied`. The session is read from the store, never
 * the cookie cache: a revoked session must not approve a grant. A fetch
 * caller (JSON body or Accept) gets `{ redirectURI }`; a form post gets the
 * 302. This is the consent page's own call, not an OAuth endpoint: its
 * errors come in core's `{ code, message }` shape (NO_PENDING_CONSENT,
 * CONSENT_ID_REQUIRED, CLIENT_DISABLED), which the client half narrows.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware, type EndpointContext } from '@gatehouse/core'
import { z } from 'zod'
import { OidcErrors } from '../errors.js'
import { issuer } from '../keys/index.js'
import { PENDING_REQUEST_MAX_AGE, type ResolvedOidcOptions } from '../options.js'
import { errorRedirect } from '../services/authorization.js'
import { findClient } from '../services/clients.js'
import { consumeCode, createCode } from '../services/codes.js'
import { recordConsent } from '../services/consents.js'
import { isLive, readPendingConsents, writePendingConsents, type PendingConsent } from '../services/pending-consents.js'
import { withParams } from '../services/redirect-uris.js'

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

      let next: string
      if (!ctx.body.accept) {
        next = errorRedirect(ctx, grant, 'access_denied', 'The user denied the request')
      } else {
        const client = await findClient(ctx.db, options, grant.clientId)
        if (!client || client.disabled) throw new AuthError(OidcErrors.CLIENT_DISABLED)
        const code = await createCode(ctx, 'code', grant, options.codeExpiresIn)
        await recordConsent(ctx.db, grant.clientId, userId, grant.scopes)
        next = withParams(grant.redirectURI, { code, state: grant.state, iss: issuer(ctx) })
      }
      return wantsJson(ctx.headers, ctx.isServerCall) ? { redirectURI: next } : ctx.redirect(next)
    },
  })
}

/**
 * The request the answer is for: the one named by `consentId`, else the only
 * one still pending in this browser (answered and expired ones do not count).
 */
async function choose(ctx: EndpointContext, entries: readonly PendingConsent[], consentId: string | undefined): Promise<PendingConsent> {
  if (consentId !== undefined) {
    const named = entries.find((entry) => entry.id !== '' && entry.id === consentId)
    if (!named) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
    return named
  }
  const live: PendingConsent[] = []
  for (const entry of entries) if (await isLive(ctx.db, ctx.clock, entry.token)) live.push(entry)
  const [only, ...others] = live
  if (!only) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
  if (others.length > 0) throw new AuthError(OidcErrors.CONSENT_ID_REQUIRED)
  return only
}
