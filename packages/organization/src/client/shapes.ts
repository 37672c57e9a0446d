/**
 * @module
 * What the organization routes answer (docs/organization.md#routes), as
 * zod/mini schemas the client checks responses against. Known fields are
 * checked and Dates revived from their JSON text; other fields pass through,
 * so a server with more fields than this client knows still works.
 * Written here, not imported from the server code, so that a browser bundle
 * holds only these few schemas.
 */
import { isoDate } from '@gatehouse/react/client'
import * as z from 'zod/mini'

export const organizationShape = z.looseObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: z.nullable(z.string()),
  metadata: z.nullable(z.record(z.string(), z.unknown())),
  createdAt: isoDate,
})

export const memberShape = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.string(),
  teamId: z.nullable(z.string()),
  createdAt: isoDate,
})

/** The public fields of a member's user, as member lists show them (null once the user is gone). */
const memberUserShape = z.nullable(
  z.looseObject({ id: z.string(), name: z.string(), email: z.string(), image: z.nullable(z.string()) }),
)

export const memberWithUserShape = z.extend(memberShape, { user: memberUserShape })

export const invitationShape = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(['pending', 'accepted', 'rejected', 'canceled']),
  teamId: z.nullable(z.string()),
  inviterId: z.string(),
  expiresAt: isoDate,
})

export const teamShape = z.looseObject({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  createdAt: isoDate,
  updatedAt: z.nullable(isoDate),
})

export const teamMemberShape = z.looseObject({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  createdAt: isoDate,
})

export const roleShape = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  role: z.string(),
  permission: z.record(z.string(), z.array(z.string())),
  createdAt: isoDate,
  updatedAt: z.nullable(isoDate),
})

/** set-active and get-full-organization: the organization with its members, invitations and (teams on) teams. */
export const fullOrganizationShape = z.extend(organizationShape, {
  members: z.array(memberWithUserShape),
  invitations: z.array(invitationShape),
  teams: z.optional(z.array(teamShape)),
})
