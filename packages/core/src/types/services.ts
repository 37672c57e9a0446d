/**
 * @module
 * The per-instance services `AuthContext` holds, as interfaces: the password
 * service (built by `accounts/passwords.ts`) and the memo of verified
 * cookie-cache texts (built by `session/cache-payload.ts`). They live here,
 * below the contract, so `types/contract.ts` names them without importing the
 * floors that build them (docs/core.md#layout).
 */
import type { Session, User } from './rows.js'

/** Hashing, timing-safe verification and the length policy for passwords (docs/passwords.md). */
export interface PasswordService {
  hash(password: string): Promise<string>
  /** False at once, without hashing, for a password longer than the maximum. */
  verify(hash: string, password: string): Promise<boolean>
  /**
   * Verifies against a dummy hash when `hash` is absent, so a miss costs the same work as a wrong password.
   * A password longer than the maximum is false after the same work, done on a bounded stand-in.
   */
  verifyOrDummy(hash: string | null | undefined, password: string): Promise<boolean>
  /** Throws "Password too short" / "Password too long" (400). */
  checkLength(password: string): void
  /** Whether a stored hash costs less than new hashes do, and should be made again once the password is known (docs/passwords.md#raising-the-cost). */
  needsRehash(hash: string): boolean
  /** Computes the dummy hash ahead of the first miss. */
  prepare(): Promise<void>
}

/** The body of the `session_data` cookie: the cookie cache of docs/sessions.md. */
export interface CachePayload {
  readonly session: Session
  readonly user: User
  /**
   * The fields a custom-session plugin added to the get-session answer
   * (docs/custom-session.md); absent when the cache was written without them.
   */
  readonly extra?: Readonly<Record<string, unknown>>
  /** Epoch milliseconds after which the cache is not used. */
  readonly expiresAt: number
}

/**
 * The recently verified cache cookies of one auth instance (its keys): per
 * session token hash, the signed cookie text and its decoded payload.
 */
export interface CachePayloadMemo {
  /**
   * The payload of a signed `session_data` cookie text, or null when it is
   * not one. A text byte-identical to one this memo verified before is the
   * same signed message under the same keys (an HMAC is a function of the
   * message), so it is not verified or decoded again; any other text goes
   * through `verify` (signature check, returning the value) and decoding.
   */
  read(signed: string, tokenHash: string, verify: (signed: string) => string | null): CachePayload | null
}
