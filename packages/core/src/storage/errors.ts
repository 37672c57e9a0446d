/**
 * @module
 * The error a secondary storage throws when it cannot be reached (Redis down,
 * restarting, or too slow to answer within its command timeout). Core reads
 * sessions from the database instead, and answers 503 where nothing can
 * stand in for the store (docs/secondary-storage.md#when-redis-is-down).
 */

/**
 * Thrown by `redisStorage` (and welcome from any custom storage) for a fault
 * of the store itself, never for a bad key or value. Recognised by its `name`
 * as well as by class, so a copy of core bundled twice still agrees on it.
 *
 * @example
 * throw new StorageUnavailableError('Redis is reconnecting', { cause: error })
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError'
  readonly code = 'STORAGE_UNAVAILABLE'
}

export function isStorageUnavailable(error: unknown): boolean {
  return error instanceof StorageUnavailableError || (error instanceof Error && error.name === 'StorageUnavailableError')
}
