/**
 * @module
 * POST /sso/update-provider (docs/sso.md#updating-a-provider): any of the
 * register fields; configurations merge into the stored ones, field by
 * field. Needs `sso: update` in the provider's organization, with the session
 * read from the store.
 *
 * - Identity fields (routes/provider/provider-config.ts) cannot change while
 *   accounts are linked to the provider: 409.
 * - A new domain is unverified: `domainVerified` false, `verifiedDomain`
 *   cleared, the old domain's verification tokens deleted (a token published
 *   for the old domain proves nothing about the new one).
 * - The new configuration is computed and its URLs checked before the
 *   transaction (no DNS lookup holds a row lock); the transaction locks the
 *   row, reads it again and refuses with 409 when it changed meanwhile, so two
 *   updates never merge into a configuration neither asked for, and the
 *   linked-account check and the write see the same row.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { deleteChallenges } from '../../domains/challenge-token.js'
import { normalizeDomain } from '../../domains/email-domain.js'
import { SsoErrors } from '../../errors.js'
import type { ProviderRow } from '../../schema.js'
import { requireProviderAccess } from '../../services/access.js'
import { readProvider, sealConfig } from '../../services/provider-secrets.js'
import { providerAnswer } from './provider-answer.js'
import { checkUrls, discoveryChanged, identityChanged, oidcConfig, requireDiscovery, samlConfig } from './provider-config.js'
import { updateBody } from './schemas.js'

const body = z.lazy(() => updateBody)

/**
 * @example
 * await auth.api.updateSSOProvider({ headers, body: { providerId: 'acme', oidcConfig: { clientSecret: 'rotated' } } })
 */
export const updateProvider = defineEndpoint({
  method: 'POST',
  path: '/sso/update-provider',
  body,
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const { providerId, ...changes } = ctx.body
    if (Object.values(changes).every((value) => value === undefined)) throw new AuthError(SsoErrors.NO_FIELDS_TO_UPDATE)
    const row = await requireProviderAccess(ctx, { providerId, userId: ctx.session.user.id, action: 'update' })
    const domain = changes.domain !== undefined ? normalizeDomain(changes.domain) : row.domain
    if (!domain) throw new AuthError(SsoErrors.INVALID_DOMAIN)

    const current = await readProvider(ctx, row)
    if (changes.oidcConfig && !current.oidc) throw new AuthError(SsoErrors.OIDC_NOT_CONFIGURED_FOR_UPDATE)
    if (changes.samlConfig && !current.saml) throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED_FOR_UPDATE)
    const issuer = changes.issuer ?? row.issuer
    // A new issuer is written into the configuration too (it is what ID Tokens and assertions are checked against).
    const oidc = current.oidc && (changes.oidcConfig || issuer !== row.issuer) ? oidcConfig({ issuer, body: changes.oidcConfig ?? {}, current: current.oidc }) : current.oidc
    const saml = current.saml && (changes.samlConfig || issuer !== row.issuer) ? samlConfig({ issuer, body: changes.samlConfig ?? {}, current: current.saml }) : current.saml
    const next = { issuer, oidc, saml }
    checkUrls(ctx, next, { issuer: row.issuer, oidc: current.oidc, saml: current.saml })
    if (oidc && discoveryChanged(current.oidc, oidc)) await requireDiscovery(ctx, oidc)
    const update: Row = {
      issuer,
      ...(oidc !== current.oidc && oidc ? { oidcConfig: await sealConfig(ctx.secrets, providerId, oidc) } : {}),
      ...(saml !== current.saml && saml ? { samlConfig: await sealConfig(ctx.secrets, providerId, saml) } : {}),
      ...(changes.twoFactor !== undefined ? { twoFactor: changes.twoFactor } : {}),
    }

    const updated = await ctx.db.transaction(async (tx) => {
      const locked = await tx.lock<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'id', value: row.id } })
      if (!locked) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
      const unchanged =
        locked.issuer === row.issuer && locked.domain === row.domain && locked.oidcConfig === row.oidcConfig && locked.samlConfig === row.samlConfig
      if (!unchanged) throw new AuthError(SsoErrors.PROVIDER_CHANGED_DURING_UPDATE)
      if (identityChanged({ issuer: row.issuer, oidc: current.oidc, saml: current.saml }, next)) {
        const linked = await tx.count({ model: 'account', where: { field: 'providerId', value: providerId } })
        if (linked > 0) throw new AuthError(SsoErrors.IDENTITY_FIELDS_LOCKED)
      }
      const domainChanged = domain !== locked.domain
      if (domainChanged) await deleteChallenges(tx, providerId)
      return tx.update<ProviderRow & Row>({
        model: 'ssoProvider',
        where: { field: 'id', value: row.id },
        update: { ...update, ...(domainChanged ? { domain, domainVerified: false, verifiedDomain: null } : {}) },
      })
    })
    if (!updated) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
    return providerAnswer(updated, ctx.auth.baseURL)
  },
})
