/**
 * @module
 * POST /organization/create: creates the organization with its
 * creator as the first member (creatorRole, default owner) and, unless
 * `keepCurrentActiveOrganization`, makes it the session's active one.
 * Allowed unless configured otherwise (`allowUserToCreateOrganization`), within the per-user
 * organization limit; a server-side call without a session may create one
 * for a given userId, a request needs a session. The slug's unique index
 * decides two concurrent creates with one slug.
 */
import { AuthError, defineEndpoint, isUniqueViolation, optionalSessionMiddleware, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Member, Organization, ResolvedOptions, Team } from '../../options.js'
import { setActive } from '../../services/active-organization.js'

const body = z.lazy(() =>
  z.object({
    name: z.string().min(1),
    slug: z.string().min(1),
    userId: z.string().min(1).optional(),
    logo: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    keepCurrentActiveOrganization: z.boolean().optional(),
  }),
)

export function createOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/create',
    body,
    use: [optionalSessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      let creator: User
      if (body.userId !== undefined && (ctx.isServerCall || session?.user.id === body.userId)) {
        const found = await db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: body.userId } })
        if (!found) throw new AuthError(OrganizationErrors.USER_NOT_FOUND)
        creator = found
      } else if (body.userId !== undefined && session) {
        // A request may only create organizations for its own user.
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION)
      } else if (session) {
        creator = session.user
      } else {
        throw new AuthError(OrganizationErrors.NOT_AUTHENTICATED)
      }

      const allow = options.allowUserToCreateOrganization
      if (!(typeof allow === 'function' ? await allow(creator) : allow)) {
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION)
      }
      const limit = options.organizationLimit
      if (typeof limit === 'function' && (await limit(creator))) {
        throw new AuthError(OrganizationErrors.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS)
      }
      if (await db.findOne({ model: 'organization', where: { field: 'slug', value: body.slug } })) {
        throw new AuthError(OrganizationErrors.ORGANIZATION_ALREADY_EXISTS)
      }

      let created: { organization: Organization; member: Member; team: Team | null }
      try {
        created = await db.transaction(async (tx) => {
          if (typeof limit === 'number' && Number.isFinite(limit)) {
            // The creator's row is the lock: two creations by one user cannot both pass the count.
            await tx.lock({ model: 'user', where: { field: 'id', value: creator.id } })
            const memberships = await tx.count({ model: 'member', where: { field: 'userId', value: creator.id } })
            if (memberships >= limit) throw new AuthError(OrganizationErrors.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS)
          }
          const organization = await tx.create<Organization & Row>({
            model: 'organization',
            data: { name: body.name, slug: body.slug, logo: body.logo ?? null, metadata: body.metadata ?? null },
          })
          const team =
            options.teams.enabled && options.teams.defaultTeam
              ? await tx.create<Team & Row>({ model: 'team', data: { name: organization.name, organizationId: organization.id } })
              : null
          const member = await tx.create<Member & Row>({
            model: 'member',
            data: { organizationId: organization.id, userId: creator.id, role: options.creatorRole, teamId: team?.id ?? null },
          })
          if (team) await tx.create({ model: 'teamMember', data: { teamId: team.id, userId: creator.id } })
          return { organization, member, team }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.ORGANIZATION_ALREADY_EXISTS)
        throw error
      }

      if (session && session.user.id === creator.id && !body.keepCurrentActiveOrganization) {
        await setActive({ ...ctx, session }, options, { activeOrganizationId: created.organization.id, activeTeamId: null })
      }
      return { ...created.organization, members: [created.member] }
    },
  })
}
