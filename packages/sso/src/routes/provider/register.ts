/**
 * @module
 * POST /sso/register (docs/sso.md#registering-a-provider): an organization's
 * owner or admin (`sso: create`) adds an OIDC or a SAML identity provider for
 * one email domain. The session is read from the store, never the cookie
 * cache: a session revoked elsewhere cannot register a provider during the
 * cache's lifetime.
 *
 * Checked before anything is written: the providerId's format and that no
 * other way in uses it (routes/provider/reserved-ids.ts), the domain, every
 * URL by its kind (services/url-policy.ts), and for OIDC the discovery
 * document as it is now (oidc/discovery.ts, through the SSRF-safe fetch; with
 * `skipDiscovery`, that the given endpoints are complete), so a typo answers
 * 400 here rather than failing every sign-in later. Only the given endpoints
 * are stored, never the discovered ones: sign-in discovers again (cached), so
 * an IdP rotating its JWKS URL keeps working. Written in one transaction that
 * locks the organization row: the per-organization limit (`providersLimit`)
 * is counted under that lock, so two concurrent registrations cannot both
 * pass it; the unique providerId index settles two registrations of one id.
 * Secrets are sealed before they reach the row (services/provider-secrets.ts).
 * The answer is the sanitized provider, with the domain verification token
 * to publish in DNS (`_gatehouse-challenge.<domain>`): no secret comes back.
 */
import { AuthError, defineEndpoint, isUniqueViolation, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { normalizeDomain } from '../../domains/email-domain.js'
import { issueChallenge } from '../../domains/challenge-token.js'
import { SsoErrors } from '../../errors.js'
import type { ResolvedSsoOptions } from '../../options.js'
import type { ProviderRow } from '../../schema.js'
import { requireSsoPermission } from '../../services/access.js'
import { sealConfig } from '../../services/provider-secrets.js'
import { providerAnswer } from './provider-answer.js'
import { checkUrls, oidcConfig, requireDiscovery, samlConfig } from './provider-config.js'
import { isReservedProviderId, isValidProviderId } from './reserved-ids.js'
import { registerBody } from './schemas.js'

const body = z.lazy(() => registerBody)

/**
 * @example
 * await auth.api.registerSSOProvider({
 *   headers,
 *   body: {
 *     providerId: 'acme', organizationId, issuer: 'https://acme.okta.com', domain: 'acme.com',
 *     oidcConfig: { clientId: '0oa…', clientSecret: '…' },
 *   },
 * })
 * // { providerId: 'acme', type: 'oidc', domainVerified: false, domainVerificationToken: '…', redirectURI: '…/sso/callback/acme', ... }
 */
export function registerProvider(options: ResolvedSsoOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sso/register',
    body,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { body, session } = ctx
      const userId = session.user.id
      const { organizationId } = body
      if (!organizationId) throw new AuthError(SsoErrors.ORGANIZATION_ID_REQUIRED)
      await requireSsoPermission(ctx, { organizationId, userId, action: 'create' }, SsoErrors.YOU_ARE_NOT_ALLOWED_TO_REGISTER_SSO_PROVIDERS)
      if (options.providersLimit === 0) throw new AuthError(SsoErrors.REGISTRATION_DISABLED)
      if (!isValidProviderId(body.providerId)) throw new AuthError(SsoErrors.INVALID_PROVIDER_ID)
      const domain = normalizeDomain(body.domain)
      if (!domain) throw new AuthError(SsoErrors.INVALID_DOMAIN)
      if (!body.oidcConfig && !body.samlConfig) throw new AuthError(SsoErrors.PROTOCOL_CONFIG_REQUIRED)
      if (body.oidcConfig && body.samlConfig) throw new AuthError(SsoErrors.ONE_PROTOCOL_ONLY)
      if (await isReservedProviderId(ctx, body.providerId)) {
        ctx.logger.warn('sso: registration refused, the providerId is reserved', { providerId: body.providerId })
        throw new AuthError(SsoErrors.PROVIDER_ID_RESERVED)
      }
      if (await ctx.db.findOne({ model: 'ssoProvider', where: { field: 'providerId', value: body.providerId } })) {
        throw new AuthError(SsoErrors.PROVIDER_ID_TAKEN)
      }

      const oidc = body.oidcConfig ? oidcConfig({ issuer: body.issuer, body: body.oidcConfig }) : null
      const saml = body.samlConfig ? samlConfig({ issuer: body.issuer, body: body.samlConfig }) : null
      checkUrls(ctx, { issuer: body.issuer, oidc, saml })
      if (oidc) await requireDiscovery(ctx, oidc)
      const sealed = {
        oidcConfig: oidc ? await sealConfig(ctx.secrets, body.providerId, oidc) : null,
        samlConfig: saml ? await sealConfig(ctx.secrets, body.providerId, saml) : null,
      }

      let created: { row: ProviderRow; token: string }
      try {
        created = await ctx.db.transaction(async (tx) => {
          await tx.lock({ model: 'organization', where: { field: 'id', value: organizationId } })
          const count = await tx.count({ model: 'ssoProvider', where: { field: 'organizationId', value: organizationId } })
          if (count >= options.providersLimit) throw new AuthError(SsoErrors.PROVIDERS_LIMIT_REACHED)
          const row = await tx.create<ProviderRow & Row>({
            model: 'ssoProvider',
            data: {
              providerId: body.providerId,
              issuer: body.issuer,
              domain,
              domainVerified: false,
              verifiedDomain: null,
              ...sealed,
              twoFactor: body.twoFactor ?? 'skip',
              userId,
              organizationId,
            },
          })
          const token = await issueChallenge(ctx, { id: row.id, providerId: row.providerId, domain: row.domain }, tx)
          return { row, token }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(SsoErrors.PROVIDER_ID_TAKEN)
        throw error
      }
      return { ...providerAnswer(created.row, ctx.auth.baseURL), domainVerified: false, domainVerificationToken: created.token }
    },
  })
}
