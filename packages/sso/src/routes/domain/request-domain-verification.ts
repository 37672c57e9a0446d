/**
 * @module
 * POST /sso/request-domain-verification {providerId} → 201
 * `{ domainVerificationToken }` (docs/sso.md#verifying-a-domain). Needs
 * `sso: update` in the provider's organization. The organization publishes
 * the token as a TXT record at `_gatehouse-challenge.<domain>`, then calls
 * verify-domain. An unexpired token of this provider and domain is answered
 * again rather than replaced, so a second click does not invalidate a record
 * already being published; a new one lives seven days
 * (domains/challenge-token.ts). 409 once the domain is verified.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { issueChallenge } from '../../domains/challenge-token.js'
import { SsoErrors } from '../../errors.js'
import { requireProviderAccess } from '../../services/access.js'

const body = z.lazy(() => z.object({ providerId: z.string().min(1).max(256) }))

/**
 * @example
 * const response = await auth.api.requestDomainVerification({ headers, body: { providerId: 'acme' }, asResponse: true })
 * const { domainVerificationToken } = await response.json() // publish at _gatehouse-challenge.acme.com
 */
export const requestDomainVerification = defineEndpoint({
  method: 'POST',
  path: '/sso/request-domain-verification',
  body,
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const row = await requireProviderAccess(ctx, { providerId: ctx.body.providerId, userId: ctx.session.user.id, action: 'update' })
    if (row.domainVerified) throw new AuthError(SsoErrors.DOMAIN_ALREADY_VERIFIED)
    const domainVerificationToken = await issueChallenge(ctx, { id: row.id, providerId: row.providerId, domain: row.domain })
    return new Response(JSON.stringify({ domainVerificationToken }), {
      status: 201,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    })
  },
})
