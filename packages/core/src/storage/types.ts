/**
 * @module
 * The secondary storage contract (docs/secondary-storage.md): a key-value store with
 * expiry, used for sessions and rate limits when configured. Redis is the
 * usual backend (`@gatehouse/core/storage/redis`); `memoryStorage()` serves
 * tests and single-process servers.
 */

export interface SecondaryStorage {
  get(key: string): Promise<string | null>
  /** Stores `value`; with `ttlSeconds` the entry disappears after that many seconds. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>
  /**
   * Resolves once the key is gone; throws (best `StorageUnavailableError`) when
   * that cannot be confirmed. Revoking a session relies on it: it answers 503
   * rather than report a session ended while a copy may keep it alive
   * (docs/sessions.md#revocation-and-racing-reads).
   */
  delete(key: string): Promise<void>
  /**
   * Atomically adds one to the counter at `key` and returns the new value. A
   * counter that did not exist starts at 1 and expires after `ttlSeconds`;
   * increments do not extend that expiry. Needed to keep rate limits in this
   * store (50 parallel requests against a limit of 3 must let exactly 3 through).
   */
  increment?(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }>
}
