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
 * The request the answer is for (answered and expired requests do not count):
 *
 * 1. the one named by `consentId`;
 * 2. else, once the consent page loaded a request (GET /oauth2/consent), the
 *    one it loaded, if that is unambiguous;
 * 3. else the one named by the `consent_id` of the page the answer was posted
 *    from (its `Referer`): a page written to the spec, which shows the
 *    `client_id` and `scope` of its URL, answers for the request of that URL.
 *    A page URL that names no request is refused: it may show a client the
 *    attacker wrote into it while another request waits (review F2);
 * 4. else (no `Referer` with a query: a caller that is not a page in a browser,
 *    or a page on another origin whose browser sends only the origin) the one
 *    live request, if there is exactly one: the spec's wire format.
 */
async function choose(ctx: EndpointContext, entries: readonly PendingConsent[], consentId: string | undefined): Promise<PendingConsent> {
  const named = (id: string) => {
    const entry = entries.find((candidate) => candidate.id !== '' && candidate.id === id)
    if (!entry) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
    return entry
  }
  if (consentId !== undefined) return named(consentId)
  const live: PendingConsent[] = []
  for (const entry of entries) if (await isLive(ctx.db, ctx.clock, entry.token)) live.push(entry)
  if (live.length === 0) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
  if (live.some((entry) => entry.shown !== undefined)) {
    const chosen = shownRequest(live)
    if (chosen === 'none') throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
    if (chosen === 'ambiguous') throw new AuthError(OidcErrors.CONSENT_ID_REQUIRED)
    return chosen
  }
  const page = pageQuery(ctx.headers.get('referer'))
  if (page) {
    const id = page.get('consent_id')
    if (!id) throw new AuthError(OidcErrors.CONSENT_ID_REQUIRED)
    return named(id)
  }
  const [only, ...others] = live
  if (!only || others.length > 0) throw new AuthError(OidcErrors.CONSENT_ID_REQUIRED)
  return only
}

/** The query of the page an answer was posted from, or null when the `Referer` carries none (absent, origin only, unparsable). */
function pageQuery(referer: string | null): URLSearchParams | null {
  if (!referer || !URL.canParse(referer)) return null
  const url = new URL(referer)
  return url.search === '' ? null : url.searchParams
}
