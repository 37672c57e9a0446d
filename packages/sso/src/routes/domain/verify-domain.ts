/**
 * @module
 * POST /sso/verify-domain {providerId} → 204 (docs/sso.md#verifying-a-domain).
 * Needs `sso: update` in the provider's organization. The TXT record at
 * `_gatehouse-challenge.<domain>` must hold an unexpired token issued for this
 * provider and its current domain (domains/dns-challenge.ts); otherwise, or
 * when the lookup fails, 502 as the leading library answers.
 *
 * A domain is verified for at most one provider at a time, across every
 * organization: otherwise two organizations could each route `@acme.com`
 * sign-ins to their own IdP. The DNS lookup runs first, outside any
 * transaction; then one transaction locks the provider row, reads it again
 * (still there, same domain, not yet verified: else 409), refuses when
 * another provider holds the domain verified, and sets `domainVerified` with
 * `verifiedDomain`. That last column's unique index decides two verify-domain
 * calls for one domain in two organizations racing past the read: exactly
 * one commits, the other answers 409. The tokens are deleted once used.
 */
import { AuthError, defineEndpoint, isUniqueViolation, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { activeChallenges, deleteChallenges } from '../../domains/challenge-token.js'
import { checkChallenge } from '../../domains/dns-challenge.js'
import { SsoErrors } from '../../errors.js'
import type { ResolvedSsoOptions } from '../../options.js'
import type { ProviderRow } from '../../schema.js'
import { requireProviderAccess } from '../../services/access.js'

const body = z.lazy(() => z.object({ providerId: z.string().min(1).max(256) }))

/**
 * @example
 * await auth.api.verifyDomain({ headers, body: { providerId: 'acme' }, asResponse: true }) // 204 once the TXT record is found
 */
export function verifyDomain(options: ResolvedSsoOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sso/verify-domain',
    body,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const row = await requireProviderAccess(ctx, { providerId: ctx.body.providerId, userId: ctx.session.user.id, action: 'update' })
      if (row.domainVerified) throw new AuthError(SsoErrors.DOMAIN_ALREADY_VERIFIED)
      const tokens = await activeChallenges(ctx, { id: row.id, providerId: row.providerId, domain: row.domain })
      if (tokens.length === 0) throw new AuthError(SsoErrors.NO_PENDING_DOMAIN_VERIFICATION)
      const proof = await checkChallenge(options.domainVerification.resolveTxt, row.domain, tokens)
      if (!proof.ok) {
        ctx.logger.info('sso: domain verification failed', { providerId: row.providerId, domain: row.domain, reason: proof.reason })
        throw new AuthError(SsoErrors.DOMAIN_VERIFICATION_FAILED, {
          message: SsoErrors.DOMAIN_VERIFICATION_FAILED.message.replace('{domain}', row.domain),
        })
      }
      try {
        await ctx.db.transaction(async (tx) => {
          const locked = await tx.lock<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'id', value: row.id } })
          if (!locked || locked.domain !== row.domain) throw new AuthError(SsoErrors.PROVIDER_CHANGED)
          if (locked.domainVerified) throw new AuthError(SsoErrors.DOMAIN_ALREADY_VERIFIED)
          const sameDomain = await tx.findMany<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'domain', value: row.domain } })
          if (sameDomain.some((other) => other.id !== row.id && other.domainVerified === true)) throw new AuthError(SsoErrors.DOMAIN_VERIFIED_FOR_ANOTHER_PROVIDER)
          await tx.update({ model: 'ssoProvider', where: { field: 'id', value: row.id }, update: { domainVerified: true, verifiedDomain: row.domain } })
          await deleteChallenges(tx, row.providerId)
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(SsoErrors.DOMAIN_VERIFIED_FOR_ANOTHER_PROVIDER)
        throw error
      }
      return new Response(null, { status: 204 })
    },
  })
}
