/**
 * @module
 * The default password hash: scrypt (RFC 7914) with N=16384, r=16, p=1, a
 * 64-byte key and a fresh 16-byte salt, stored as
 * `scrypt$16384$16$1$<salt base64url>$<key base64url>` (see `scrypt-format.ts`).
 *
 * Passwords are normalised to Unicode NFKC before hashing, so a password typed
 * on another keyboard or OS (precomposed "é" versus "e" + combining accent, the
 * "ﬁ" ligature versus "fi", full-width digits) still verifies. Hashes made by
 * other libraries in the `<salt hex>:<key hex>` format apply the same
 * normalisation, so they verify here too.
 *
 * The whole UTF-8 encoding is hashed, whatever its length: unlike bcrypt's
 * 72-byte limit, nothing past some length is silently ignored. Length limits
 * are policy and are checked by the endpoints ("Password too long": docs/passwords.md#no-truncation).
 */

import { utf8ToBytes } from '@noble/hashes/utils.js'
import { constantTimeEqual } from '../crypto/keys.js'
import { cryptoRandom } from '../crypto/random.js'
import { DEFAULT_SCRYPT_PARAMS, formatScryptHash, parsePasswordHash, SALT_LENGTH, type ScryptParams } from './scrypt-format.js'
import { deriveScryptKey, type ScryptBackend } from './scrypt-kdf.js'

/**
 * Forces a scrypt implementation. Tests use it to check that the Node and
 * pure-JavaScript paths agree; applications leave it out.
 *
 * @internal
 */
export interface ScryptRunOptions {
  readonly backend?: ScryptBackend
  /** Parameters of a new hash (`emailAndPassword.password.scrypt`); default {@link DEFAULT_SCRYPT_PARAMS}. */
  readonly params?: ScryptParams
}

/**
 * The bytes that get hashed: NFKC first, so canonically or compatibly
 * equivalent spellings of the same password are the same password.
 *
 * @example
 * passwordBytes('ﬁsh') // the UTF-8 bytes of 'fish'
 */
export function passwordBytes(password: string): Uint8Array {
  return utf8ToBytes(password.normalize('NFKC'))
}

/**
 * Hashes a password with the default scrypt parameters (or `options.params`)
 * and a random salt. Two calls on the same password give different strings.
 *
 * @example
 * const stored = await hashPassword('correct horse battery staple')
 * // 'scrypt$16384$16$1$3q2-7w...$Zt0xJ...'
 */
export async function hashPassword(password: string, options: ScryptRunOptions = {}): Promise<string> {
  if (typeof password !== 'string') throw new TypeError('hashPassword needs the password as a string')
  const params = options.params ?? DEFAULT_SCRYPT_PARAMS
  const salt = cryptoRandom.bytes(SALT_LENGTH)
  const key = await deriveScryptKey(passwordBytes(password), salt, params, options.backend)
  return formatScryptHash(params, salt, key)
}

/**
 * Checks a password against a stored hash, in our format or the
 * `<salt hex>:<key hex>` format of other libraries, using the parameters the
 * hash records. A malformed hash, or one whose parameters exceed the caps in
 * `SCRYPT_LIMITS`, gives `false` at once without running scrypt; this never
 * throws for bad input.
 *
 * @example
 * if (!(await verifyPassword(account.password, body.password))) {
 *   throw new AuthError('INVALID_EMAIL_OR_PASSWORD')
 * }
 */
export async function verifyPassword(hash: string, password: string, options: ScryptRunOptions = {}): Promise<boolean> {
  if (typeof password !== 'string') return false
  const parsed = parsePasswordHash(hash)
  if (parsed === undefined) return false
  const key = await deriveScryptKey(passwordBytes(password), parsed.salt, parsed.params, options.backend)
  // Constant time: an early exit at the first differing byte would let an
  // attacker who can time responses learn how much of the key they matched.
  return constantTimeEqual(key, parsed.key)
}
