/**
 * @module
 * Making, finding and answering keys (docs/api-key.md#how-keys-are-kept).
 * A key is its prefix and `keyLength` letters from the CSPRNG; the row keeps
 * its SHA-256 and its first characters. Answers never carry the hash, and the
 * key itself only in create's answer.
 */
import { sha256Base64url, type Random, type Store } from '@gatehouse/core'
import { KEY_ALPHABET, type ResolvedApiKeyOptions } from '../options.js'
import type { ApiKeyRow } from '../schema.js'
import { parseStatements } from './permissions.js'

export const MODEL = 'apikey'

/**
 * @example
 * const key = generateKey(ctx.random, resolved, 'ci_') // 'ci_' + 64 letters
 */
export function generateKey(random: Random, options: ResolvedApiKeyOptions, prefix: string | undefined): string {
  return `${prefix ?? ''}${random.string(options.keyLength, KEY_ALPHABET)}`
}

/** What the `key` column holds: the SHA-256 of the whole key, base64url. */
export const hashKey = (key: string): string => sha256Base64url(key)

export async function findKeyByHash(db: Store, key: string): Promise<ApiKeyRow | null> {
  return db.findOne<ApiKeyRow & Record<string, unknown>>({ model: MODEL, where: { field: 'key', value: hashKey(key) } })
}

export async function findKeyById(db: Store, id: string): Promise<ApiKeyRow | null> {
  return db.findOne<ApiKeyRow & Record<string, unknown>>({ model: MODEL, where: { field: 'id', value: id } })
}

function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The wire form of a key row: the hash left out, permissions and metadata parsed, `userId` for a user's key. */
export type ApiKeyAnswer = Omit<ApiKeyRow, 'key' | 'permissions' | 'metadata'> & {
  readonly userId?: string
  readonly permissions: Record<string, readonly string[]> | null
  readonly metadata: Record<string, unknown> | null
}

/**
 * @example
 * return answer(row) // never row.key
 */
export function answer(row: ApiKeyRow): ApiKeyAnswer {
  const { key: _hash, permissions, metadata, ...rest } = row
  return {
    ...rest,
    ...(row.referenceType === 'organization' ? {} : { userId: row.referenceId }),
    permissions: parseStatements(permissions),
    metadata: parseMetadata(metadata),
  }
}
