/**
 * @module
 * POST /organization/update: changes name, slug, logo or metadata
 * of the named (or active) organization. Needs `organization: update`
 * (owner and admin by default). A slug held by another organization is 400
 * "slug is taken"; the unique index decides a concurrent rename.
 */
import { AuthError, defineEndpoint, isUniqueViolation, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Organization, ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { requireOrganization } from '../../services/organizations.js'

const body = z.lazy(() =>
  z.object({
    data: z.object({
      name: z.string().min(1).optional(),
      slug: z.string().min(1).optional(),
      logo: z.string().nullable().optional(),
      metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    }),
    organizationId: z.string().min(1).optional(),
  }),
)

export function updateOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/update',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      const organizationId = targetOrganization(session, body.organizationId)
      const organization = await requireOrganization(db, { id: organizationId })
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { organization: ['update'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION,
      })
      const update: Row = {}
      for (const [field, value] of Object.entries(body.data)) if (value !== undefined) update[field] = value
      if (Object.keys(update).length === 0) return organization
      if (body.data.slug !== undefined && body.data.slug !== organization.slug) {
        const holder = await db.findOne({ model: 'organization', where: { field: 'slug', value: body.data.slug } })
        if (holder) throw new AuthError(OrganizationErrors.SLUG_IS_TAKEN)
      }
      try {
        const updated = await db.update<Organization & Row>({ model: 'organization', where: { field: 'id', value: organizationId }, update })
        if (!updated) throw new AuthError(OrganizationErrors.ORGANIZATION_NOT_FOUND)
        return updated
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.SLUG_IS_TAKEN)
        throw error
      }
    },
  })
}
