/**
 * @module
 * POST /oauth2/consent {accept} (docs/oidc-provider.md#consent): the signed-in
 * user's answer to the consent page. The pending request comes from the
 * signed consent cookie and must belong to this user. Accepting re-issues
 * the code and remembers the consent; denying deletes the pending code and
 * sends `access_denied`. A fetch caller (JSON body or Accept) gets
 * `{ redirectURI }`; a form post gets the 302. This is the consent page's
 * own call, not an OAuth endpoint: its errors come in core's `{ code, message }`
 * shape (NO_PENDING_CONSENT, CLIENT_DISABLED), which the client half narrows.
 */
import { AuthError, defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OidcErrors } from '../errors.js'
import { issuer } from '../keys/index.js'
import type { ResolvedOidcOptions } from '../options.js'
import { CONSENT_COOKIE, errorRedirect } from '../services/authorization.js'
import { findClient } from '../services/clients.js'
import { consumeCode, createCode } from '../services/codes.js'
import { recordConsent } from '../services/consents.js'
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
    body: z.lazy(() => z.object({ accept })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const pending = ctx.cookies.getSigned(CONSENT_COOKIE)
      if (!pending) throw new AuthError(OidcErrors.NO_PENDING_CONSENT)
      ctx.cookies.delete(CONSENT_COOKIE)
      const userId = ctx.session.user.id
      const consumed = await consumeCode(ctx, 'consent', pending)
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
