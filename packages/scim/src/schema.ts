/**
 * @module
 * The plugin's tables and the field it adds (docs/scim.md#tables).
 *
 * - `scimToken`: an organization's bearer tokens. Only the SHA-256 of a
 *   token is stored (`tokenHash`, never returned), so a database dump holds
 *   no usable token; `start` keeps its first characters to tell tokens apart
 *   in a list. One token per (organization, `providerId`): generating again
 *   for the same `providerId` replaces it (rotation).
 * - `scimUser`: what the directory said about one member of one
 *   organization: its `userName` (unique per organization, compared
 *   lowercased through `userNameKey`), its `externalId` (unique per
 *   organization) and its other attributes, and whether SCIM created the
 *   user row (`createdUser`: only then may the directory change the user's
 *   name and email, and delete the user). A member the directory never
 *   wrote has none; it is shown from its user row.
 * - `scimGroup` (groups on): a team's `externalId`.
 * - `member.suspendedAt`: set while the directory says `active: false`; the
 *   organization plugin then treats the member as none (docs/scim.md#suspension).
 *
 * Every row goes with its organization (cascade); `scimUser` with its user too.
 */
import type { SchemaExtension } from '@gatehouse/core'
import type { ResolvedScimOptions } from './options.js'

const organization = { model: 'organization', field: 'id', onDelete: 'cascade' } as const

/**
 * @example
 * mergeSchemas(coreSchema, organizationSchema(resolveOrganizationOptions({ teams: { enabled: true } })), scimSchema(resolveOptions()))
 */
export function scimSchema(options: Pick<ResolvedScimOptions, 'groups'>): SchemaExtension {
  const schema: Record<string, SchemaExtension[string]> = {
    scimToken: {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        providerId: { type: 'string' },
        tokenHash: { type: 'string', unique: true, returned: false },
        start: { type: 'string' },
        createdBy: { type: 'string', required: false, index: true, references: { model: 'user', field: 'id', onDelete: 'set null' } },
        expiresAt: { type: 'date', required: false },
        lastUsedAt: { type: 'date', required: false },
        createdAt: { type: 'date' },
      },
      unique: [['organizationId', 'providerId']],
    },
    scimUser: {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        userId: { type: 'string', index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
        userName: { type: 'string' },
        userNameKey: { type: 'string', lowercase: true },
        externalId: { type: 'string', required: false },
        attributes: { type: 'json', required: false },
        createdUser: { type: 'boolean', defaultValue: false },
        createdAt: { type: 'date' },
        updatedAt: { type: 'date' },
      },
      unique: [
        ['organizationId', 'userId'],
        ['organizationId', 'userNameKey'],
        ['organizationId', 'externalId'],
      ],
    },
    member: {
      fields: {
        suspendedAt: { type: 'date', required: false, input: false },
      },
    },
  }
  if (options.groups) {
    schema.scimGroup = {
      fields: {
        organizationId: { type: 'string', index: true, references: organization },
        teamId: { type: 'string', unique: true, references: { model: 'team', field: 'id', onDelete: 'cascade' } },
        externalId: { type: 'string', required: false },
        createdAt: { type: 'date' },
        updatedAt: { type: 'date' },
      },
      unique: [['organizationId', 'externalId']],
    }
  }
  return schema
}

export interface TokenRow {
  [field: string]: unknown
  id: string
  organizationId: string
  providerId: string
  tokenHash: string
  start: string
  createdBy: string | null
  expiresAt: Date | null
  lastUsedAt: Date | null
  createdAt: Date
}

export interface ScimUserRow {
  [field: string]: unknown
  id: string
  organizationId: string
  userId: string
  userName: string
  userNameKey: string
  externalId: string | null
  attributes: Record<string, unknown> | null
  createdUser: boolean
  createdAt: Date
  updatedAt: Date
}

export interface ScimGroupRow {
  [field: string]: unknown
  id: string
  organizationId: string
  teamId: string
  externalId: string | null
  createdAt: Date
  updatedAt: Date
}
