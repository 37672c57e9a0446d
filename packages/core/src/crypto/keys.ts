/**
 * @module
 * One configured secret, many keys. Every use (cookie signatures, the cached
 * session payload, email verification tokens, ...) gets its own 256-bit key
 * derived with HKDF-SHA256 (RFC 5869) using the purpose as `info`. A key that
 * leaks or is misused for one purpose therefore tells an attacker nothing about
 * the others, and a signature made for one purpose never verifies for another
 * (no cross-protocol confusion between, say, a cookie and a verification token).
 *
 * Rotation: the secret may be a list, newest first. New values are always made
 * with the newest secret; verification tries every secret so sessions signed
 * before the rotation keep working until the old secret is dropped.
 *
 * Also here: SHA-256 helpers for storing tokens hashed at rest, and a
 * constant-time comparison.
 */

import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { primitives } from './primitives.js'

/** Shortest secret accepted in production: 32 characters of base64 carry 192 bits. */
export const MIN_SECRET_LENGTH = 32

/** Fixed HKDF salt: separates our keys from anything else derived from the same secret. */
const HKDF_SALT = utf8ToBytes('gatehouse/hkdf/v1')
const KEY_LENGTH = 32

export interface Secrets {
  /** The key for `purpose` derived from the newest secret: use it to sign or encrypt. */
  key(purpose: string): Uint8Array
  /** Keys for `purpose` from every configured secret, newest first: try them all to verify. */
  keys(purpose: string): readonly Uint8Array[]
}

function toList(secrets: string | readonly string[]): readonly string[] {
  return typeof secrets === 'string' ? [secrets] : secrets
}

/**
 * Derives per-purpose keys from the configured secret(s), caching each derivation.
 * Returned arrays are copies, so a caller that scribbles on one cannot corrupt the cache.
 *
 * @example
 * const secrets = createSecrets([process.env.AUTH_SECRET_NEW!, process.env.AUTH_SECRET_OLD!])
 * const signature = sign(token, secrets.key('cookie-signature'))
 * const ok = verify(token, signature, secrets.keys('cookie-signature'))
 */
export function createSecrets(secrets: string | readonly string[]): Secrets {
  const list = toList(secrets)
  if (list.length === 0 || list.some((secret) => secret.length === 0)) {
    throw new TypeError('createSecrets needs at least one non-empty secret')
  }
  const ikms = list.map((secret) => utf8ToBytes(secret))
  const cache = new Map<string, readonly Uint8Array[]>()

  function derived(purpose: string): readonly Uint8Array[] {
    if (purpose.length === 0) throw new TypeError('A key purpose must be a non-empty string')
    let keys = cache.get(purpose)
    if (keys === undefined) {
      const info = utf8ToBytes(purpose)
      keys = ikms.map((ikm) => hkdf(sha256, ikm, HKDF_SALT, info, KEY_LENGTH))
      cache.set(purpose, keys)
    }
    return keys
  }

  const secretsObject: Secrets = {
    key(purpose) {
      const [newest] = derived(purpose)
      // Non-empty by construction; the check satisfies the index type.
      if (newest === undefined) throw new Error('No secret configured')
      return newest.slice()
    },
    keys(purpose) {
      return derived(purpose).map((key) => key.slice())
    },
  }
  derivations.set(secretsObject, derived)
  return secretsObject
}

/** The cache behind each `createSecrets` result, for `sharedKeys`. */
const derivations = new WeakMap<Secrets, (purpose: string) => readonly Uint8Array[]>()

/**
 * Keys for `purpose`, newest first, without the copy `keys()` makes: the same
 * arrays on every call, so work done per key (a node:crypto key object,
 * primitives.ts) can be remembered by the array's identity. For this
 * package's own signing paths, which only ever pass the keys to HMAC and
 * never write to them: a key zeroed by mistake would be a key anyone knows,
 * which is why `keys()` itself keeps handing out copies to everyone else.
 * Secrets not made by `createSecrets` fall back to their `keys()`.
 *
 * @example
 * const ok = verify(value, signature, sharedKeys(secrets, 'cookie:session_token'))
 */
export function sharedKeys(secrets: Secrets, purpose: string): readonly Uint8Array[] {
  const derived = derivations.get(secrets)
  return derived ? derived(purpose) : secrets.keys(purpose)
}

/**
 * The newest key for `purpose`, shared as in `sharedKeys`.
 *
 * @example
 * const signature = sign(value, sharedKey(secrets, 'cookie:session_token'))
 */
export function sharedKey(secrets: Secrets, purpose: string): Uint8Array {
  const [newest] = sharedKeys(secrets, purpose)
  if (newest === undefined) throw new Error('No secret configured')
  return newest
}

export type SecretsValidation = { ok: true; warning?: string } | { ok: false; message: string }

const HOW_TO_GENERATE = 'Generate one with `openssl rand -base64 32`.'

/**
 * Checks the configured secret(s) at start-up. In production a missing secret, an
 * empty list, or any entry shorter than {@link MIN_SECRET_LENGTH} characters is an
 * error: a short secret can be brute-forced offline from a single signed cookie.
 * Outside production the same problems only produce a warning, so local setups run.
 *
 * @example
 * const check = validateSecrets(options.secret, { production: process.env.NODE_ENV === 'production' })
 * if (!check.ok) throw new Error(check.message)
 * if (check.warning) logger.warn(check.warning)
 */
export function validateSecrets(
  secrets: string | readonly string[] | undefined,
  options: { production: boolean },
): SecretsValidation {
  const problem = findProblem(secrets)
  if (problem === undefined) return { ok: true }
  if (options.production) return { ok: false, message: `${problem} ${HOW_TO_GENERATE}` }
  return { ok: true, warning: `${problem} This is an error in production. ${HOW_TO_GENERATE}` }
}

function findProblem(secrets: string | readonly string[] | undefined): string | undefined {
  if (secrets === undefined || secrets.length === 0) {
    return 'No secret is configured: set the `secret` option to a random value of at least 32 characters.'
  }
  const list = toList(secrets)
  for (const [index, secret] of list.entries()) {
    if (secret.length < MIN_SECRET_LENGTH) {
      const which = list.length === 1 ? 'The secret' : `Secret #${index + 1} of ${list.length}`
      return `${which} is ${secret.length} characters long; at least ${MIN_SECRET_LENGTH} are required.`
    }
  }
  return undefined
}

/**
 * SHA-256 of a UTF-8 string, as lowercase hex. Store tokens hashed so that a
 * read of the database (backup, SQL injection) yields nothing usable.
 *
 * @example
 * await db.create('verification', { identifier: sha256Hex(token), ... })
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}

/**
 * SHA-256 of a UTF-8 string, as base64url without padding (43 characters).
 *
 * @example
 * const stored = sha256Base64url(sessionToken)
 */
export function sha256Base64url(text: string): string {
  return primitives.sha256Base64url(text)
}

/**
 * Compares two secrets in time that depends only on their length, never on
 * where they first differ, so an attacker timing responses cannot recover a
 * token byte by byte. A string and bytes are compared as UTF-8 bytes; two
 * strings as UTF-16 code units, which is the same answer for any well-formed
 * strings and spares encoding both on every signature check (strings with
 * lone surrogates, which UTF-8 encoding would blur into U+FFFD, only compare
 * unequal more often).
 *
 * Written as an XOR loop rather than `node:crypto`'s `timingSafeEqual` because
 * this package runs on any Web-standard runtime (workers, Deno, Bun, edge) where
 * `node:crypto` may be missing. Unequal lengths return early: lengths of our
 * tokens, hashes and signatures are public anyway.
 *
 * @example
 * if (!constantTimeEqual(sha256Hex(presented), row.tokenHash)) return { ok: false }
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a.length !== b.length) return false
    let difference = 0
    for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
    return difference === 0
  }
  const left = typeof a === 'string' ? utf8ToBytes(a) : a
  const right = typeof b === 'string' ? utf8ToBytes(b) : b
  if (left.length !== right.length) return false
  let difference = 0
  for (let i = 0; i < left.length; i++) {
    difference |= (left[i] ?? 0) ^ (right[i] ?? 0)
  }
  return difference === 0
}
