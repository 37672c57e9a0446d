/**
 * @module
 * The `apikey` table (docs/api-key.md#tables), named and shaped as the
 * leading library's so its client reads our answers unchanged. `key` holds
 * the SHA-256 of the key (base64url), never the key: a database dump yields
 * no usable key, and the lookup is by that hash, so no comparison of secrets
 * depends on how many characters matched.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const apiKeySchema = {
  apikey: {
    fields: {
      configId: { type: 'string', required: false },
      name: { type: 'string', required: false },
      // The first characters of the key, for telling keys apart in a list; too few to guess the rest.
      start: { type: 'string', required: false },
      prefix: { type: 'string', required: false },
      key: { type: 'string', unique: true, returned: false },
      // A user's id, or an organization's for an organization key (`referenceType`).
      referenceId: { type: 'string', index: true },
      referenceType: { type: 'string', required: false },
      refillInterval: { type: 'number', required: false },
      refillAmount: { type: 'number', required: false },
      lastRefillAt: { type: 'date', required: false },
      enabled: { type: 'boolean' },
      rateLimitEnabled: { type: 'boolean' },
      rateLimitTimeWindow: { type: 'number', required: false },
      rateLimitMax: { type: 'number', required: false },
      requestCount: { type: 'number' },
      remaining: { type: 'number', required: false },
      lastRequest: { type: 'date', required: false },
      expiresAt: { type: 'date', required: false, index: true },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
      permissions: { type: 'string', required: false },
      metadata: { type: 'string', required: false },
    },
  },
} as const satisfies SchemaExtension

export interface ApiKeyRow {
  readonly id: string
  readonly configId: string | null
  readonly name: string | null
  readonly start: string | null
  readonly prefix: string | null
  readonly key: string
  readonly referenceId: string
  readonly referenceType: string | null
  readonly refillInterval: number | null
  readonly refillAmount: number | null
  readonly lastRefillAt: Date | null
  readonly enabled: boolean
  readonly rateLimitEnabled: boolean
  readonly rateLimitTimeWindow: number | null
  readonly rateLimitMax: number | null
  readonly requestCount: number
  readonly remaining: number | null
  readonly lastRequest: Date | null
  readonly expiresAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly permissions: string | null
  readonly metadata: string | null
}
