/**
 * @module
 * The plugin's tables (docs/organization.md#tables) and the session
 * fields it adds. Uniqueness that decides races lives in the database: one
 * slug per organization, one member row per (organization, user), one team
 * membership per (team, user), one run-time role name per organization.
 * Deleting a user cascades to their memberships and the invitations they
 * sent; deleting an organization cascades to everything in it (the delete
 * route also removes them explicitly, in one transaction, so hooks see them).
 */
import type { SchemaExtension } from '@gatehouse/core'
import type { ResolvedOptions } from './options.js'

const user = { model: 'user', field: 'id', onDelete: 'cascade' } as const
const organization = { model: 'organization', field: 'id', onDelete: 'cascade' } as const

/**
 * @example
 * mergeSchemas(coreSchema, organizationSchema(resolveOptions({ teams: { enabled: true } })))
 */
export function organizationSchema(options: ResolvedOptions): SchemaExtension {
  const schema: Record<string, SchemaExtension[string]> = {
    organization: {
      fields: {
        name: { type: 'string' },
        slug: { type: 'string', unique: true },
        logo: { type: 'string', required: false },
        metadata: { type: 'json', required: false },
        createdAt: { type: 'date' },
      },
    },
    member: {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        userId: { type: 'string', index: true, references: user },
        role: { type: 'string' },
        teamId: { type: 'string', required: false },
        createdAt: { type: 'date' },
      },
      unique: [['organizationId', 'userId']],
    },
    invitation: {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        // Stored lowercase: the recipient is compared case-insensitively.
        email: { type: 'string', index: true, lowercase: true },
        role: { type: 'string' },
        status: { type: 'string', defaultValue: 'pending' },
        teamId: { type: 'string', required: false },
        inviterId: { type: 'string', references: user },
        expiresAt: { type: 'date' },
      },
    },
    session: {
      fields: {
        activeOrganizationId: { type: 'string', required: false },
        ...(options.teams.enabled ? { activeTeamId: { type: 'string', required: false } } : {}),
      },
    },
  }
  if (options.teams.enabled) {
    schema.team = {
      fields: {
        name: { type: 'string' },
        organizationId: { type: 'string', index: true, references: organization },
        createdAt: { type: 'date' },
        updatedAt: { type: 'date', required: false },
      },
    }
    schema.teamMember = {
      fields: {
        teamId: { type: 'string', index: true, references: { model: 'team', field: 'id', onDelete: 'cascade' } },
        userId: { type: 'string', index: true, references: user },
        createdAt: { type: 'date' },
      },
      unique: [['teamId', 'userId']],
    }
  }
  if (options.dynamicRoles.enabled) {
    schema.organizationRole = {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        role: { type: 'string' },
        // The granted actions, `{ resource: [action] }`, checked against the statements when written.
        permission: { type: 'json' },
        createdAt: { type: 'date' },
        updatedAt: { type: 'date', required: false },
      },
      unique: [['organizationId', 'role']],
    }
  }
  return schema
}
