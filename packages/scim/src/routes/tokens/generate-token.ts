/**
 * @module
 * POST /scim/generate-token {organizationId, providerId?} → `{ scimToken, ... }`
 * (docs/scim.md#tokens): the route and answer of the leading library's first
 * SCIM release, so its client works unchanged. The caller must be allowed
 * to manage the organization's tokens (services/token-access.ts). The token
 * is in the answer once and never again; the table keeps its hash.
 * `providerId` names the connection (default `"default"`): generating again
 * for one the organization has replaces its token (rotation), in one
 * transaction. Rate limited (plugin.ts).
 */
import { defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedScimOptions } from '../../options.js'
import { requireTokenManager } from '../../services/token-access.js'
import { generateToken, tokenInfo } from '../../services/tokens.js'

const body = z.lazy(() =>
  z.object({
    organizationId: z.string().min(1).max(256),
    providerId: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ".", "_" and "-", at most 64')
      .optional(),
  }),
)

/**
 * @example
 * const { scimToken } = await auth.api.generateSCIMToken({ body: { organizationId: org.id, providerId: 'okta' }, headers })
 */
export function generateScimToken(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/scim/generate-token',
    body,
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { organizationId } = ctx.body
      await requireTokenManager(ctx, options, ctx.session, organizationId)
      const { token, row } = await generateToken(ctx.auth, options, { organizationId, providerId: ctx.body.providerId ?? 'default', createdBy: ctx.session.user.id })
      ctx.responseHeaders.set('cache-control', 'no-store')
      return { scimToken: token, ...tokenInfo(row) }
    },
  })
}
