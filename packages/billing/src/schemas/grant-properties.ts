/**
 * @module
 * What a benefit grant gave (the platform's grant properties, by benefit type):
 * chat-community ids, repository access, files, a license key, or nothing
 * for custom benefits. The kind is the benefit's, not the grant's, so every
 * field is optional here; grants from events and from the customer state
 * share this one shape.
 */
import { z } from 'zod'
import { entity } from './common.js'

export interface GrantProperties {
  [field: string]: unknown
  accountId?: string | null
  guildId?: string
  roleId?: string
  repositoryOwner?: string
  repositoryName?: string
  permission?: string
  files?: string[]
  licenseKeyId?: string
  displayKey?: string
}

/**
 * @example
 * grantPropertiesSchema.parse({ license_key_id: 'lk_1', display_key: '****-ABCD' }).displayKey
 */
export const grantPropertiesSchema: z.ZodType<GrantProperties> = entity({
  account_id: z.string().nullish(),
  guild_id: z.string().optional(),
  role_id: z.string().optional(),
  repository_owner: z.string().optional(),
  repository_name: z.string().optional(),
  permission: z.string().optional(),
  files: z.array(z.string()).optional(),
  license_key_id: z.string().optional(),
  display_key: z.string().optional(),
})
