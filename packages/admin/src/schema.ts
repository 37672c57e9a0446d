/**
 * @module
 * The fields the admin plugin adds to core's tables (docs/admin.md#tables).
 * All are `input: false`: sign-up and update-user never let a user set their
 * own role or lift their own ban; only the admin routes write them.
 */
import type { SchemaExtension } from '@gatehouse/core'
import type { ResolvedAdminOptions } from './options.js'

/**
 * @example
 * mergeSchemas(coreSchema, adminSchema(resolveAdminOptions()))
 */
export function adminSchema(options: ResolvedAdminOptions): SchemaExtension {
  return {
    user: {
      fields: {
        // Nullable with a default, so adding the column to an existing user table needs no backfill.
        role: { type: 'string', required: false, defaultValue: options.defaultRole, input: false },
        banned: { type: 'boolean', required: false, defaultValue: false, input: false },
        banReason: { type: 'string', required: false, input: false },
        banExpires: { type: 'date', required: false, input: false },
      },
    },
    session: {
      fields: {
        // Indexed: every revocation of a user's credentials looks up the sessions they opened as others.
        impersonatedBy: { type: 'string', required: false, input: false, index: true },
      },
    },
  }
}
