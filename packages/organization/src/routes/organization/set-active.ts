/**
 * @module
 * POST /organization/set-active: makes an organization (by id or slug) the
 * session's active one and answers it in full; `organizationId: null` (or
 * nothing) clears it and answers null. Only members may activate an
 * organization, so the session never points at one the user cannot read.
 */
import { defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOptions } from '../../options.js'
import { setActive } from '../../services/active-organization.js'
import { requireMember } from '../../services/authorize.js'
import { fullOrganization, requireOrganization } from '../../services/organizations.js'

const body = z.lazy(() =>
  z.object({
    organizationId: z.string().min(1).nullable().optional(),
    organizationSlug: z.string().min(1).optional(),
  }),
)

export function setActiveOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/set-active',
    body,
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      if (body.organizationSlug === undefined && (body.organizationId === null || body.organizationId === undefined)) {
        await setActive(ctx, options, { activeOrganizationId: null, activeTeamId: null })
        return null
      }
      const organization = await requireOrganization(
        db,
        body.organizationSlug !== undefined ? { slug: body.organizationSlug } : { id: body.organizationId as string },
      )
      await requireMember(db, options, organization.id, session.user.id)
      await setActive(ctx, options, { activeOrganizationId: organization.id, activeTeamId: null })
      return fullOrganization(db, options, organization)
    },
  })
}
