/**
 * @module
 * POST /organization/check-slug: `{ status: true }` when the slug
 * is free, else 400 "slug is taken". Needs a session, so anonymous callers
 * cannot enumerate organizations.
 */
import { AuthError, defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'

export function checkOrganizationSlug() {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/check-slug',
    body: z.lazy(() => z.object({ slug: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async ({ body, db }) => {
      const taken = await db.findOne({ model: 'organization', where: { field: 'slug', value: body.slug } })
      if (taken) throw new AuthError(OrganizationErrors.SLUG_IS_TAKEN)
      return { status: true as const }
    },
  })
}
