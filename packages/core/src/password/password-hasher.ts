/**
 * @module
 * The password hasher as a replaceable pair of functions, and the verifier
 * that keeps a failed sign-in equally slow whether or not the account exists.
 *
 * Applications swap the algorithm with `emailAndPassword.password.{ hash, verify }`
 * (for example argon2 from a native module, or a KMS-backed pepper); the rest
 * of the library only ever sees a {@link PasswordHasher}.
 */

import { cryptoRandom } from '../crypto/random.js'
import { hashPassword, verifyPassword } from './scrypt.js'
import { DEFAULT_SCRYPT_PARAMS, formatScryptHash, parsePasswordHash, SALT_LENGTH, type ScryptParams } from './scrypt-format.js'

/** How passwords are hashed and checked. Both functions must not block the event loop. */
export interface PasswordHasher {
  /** A self-describing string to store in `account.password`. */
  hash(password: string): Promise<string>
  /** Whether `password` matches `hash`; `false` (not an exception) for a malformed hash. */
  verify(args: { hash: string; password: string }): Promise<boolean>
}

/**
 * scrypt with N=16384, r=16, p=1 and a 64-byte key (see `scrypt.ts`).
 *
 * @example
 * const stored = await defaultPasswordHasher.hash('correct horse battery staple')
 * await defaultPasswordHasher.verify({ hash: stored, password: 'correct horse battery staple' }) // true
 */
export const defaultPasswordHasher: PasswordHasher = Object.freeze({
  hash: (password: string) => hashPassword(password),
  verify: ({ hash, password }: { hash: string; password: string }) => verifyPassword(hash, password),
})

/** The parameters of the scrypt hashers made here: their dummy needs no derivation, and their hashes can be compared. */
const scryptHashers = new WeakMap<PasswordHasher, ScryptParams>([[defaultPasswordHasher, DEFAULT_SCRYPT_PARAMS]])

/**
 * scrypt with the given parameters for new hashes (`emailAndPassword.password.scrypt`,
 * docs/passwords.md#raising-the-cost); any stored hash verifies with the parameters it records.
 *
 * @example
 * const hasher = scryptPasswordHasher({ N: 32768, r: 16, p: 1, keyLength: 64 })
 */
export function scryptPasswordHasher(params: ScryptParams): PasswordHasher {
  const hasher: PasswordHasher = Object.freeze({
    hash: (password: string) => hashPassword(password, { params }),
    verify: ({ hash, password }: { hash: string; password: string }) => verifyPassword(hash, password),
  })
  scryptHashers.set(hasher, params)
  return hasher
}

/**
 * Whether `hash` costs less than what `hasher` makes now, so that it should
 * be made again once the password is known (docs/passwords.md#raising-the-cost):
 * any of N, r, p or the key length below the hasher's. False for a hasher
 * other than scrypt's, and for a hash this library cannot read (a replaced
 * `verify` accepted it: not ours to judge).
 *
 * @example
 * scryptHashIsWeaker(scryptPasswordHasher({ N: 32768, r: 16, p: 1, keyLength: 64 }), 'scrypt$16384$16$1$...') // true
 */
export function scryptHashIsWeaker(hasher: PasswordHasher, hash: string): boolean {
  const wanted = scryptHashers.get(hasher)
  const parsed = wanted === undefined ? undefined : parsePasswordHash(hash)
  if (wanted === undefined || parsed === undefined) return false
  const { N, r, p, keyLength } = parsed.params
  return N < wanted.N || r < wanted.r || p < wanted.p || keyLength < wanted.keyLength
}

export interface TimingSafeVerifier {
  /**
   * Verifies `password` against `hash`. With no hash (unknown email, or a user
   * without a credential account) it verifies against a dummy hash instead and
   * returns `false`, so both failures cost one full key derivation.
   */
  verifyOrDummy(hash: string | null | undefined, password: string): Promise<boolean>
  /**
   * Computes the dummy hash now rather than on the first miss. Optional: call
   * it at start-up so that the first unknown-email sign-in does not cost an
   * extra hash (one request's worth of timing difference, once per process).
   */
  prepare(): Promise<void>
}

/**
 * Wraps a hasher so that "Invalid email or password" takes the same work
 * whether or not the email exists (docs/passwords.md#same-cost-for-unknown-users;
 * prevents account enumeration by timing). The dummy hash
 * is made once, lazily, by the same hasher, so it has the same parameters and
 * cost as real hashes, including a replaced hasher's; for a scrypt hasher of
 * this module it is a hash of its parameters with a random key, made without a derivation.
 *
 * @example
 * const verifier = createTimingSafeVerifier(defaultPasswordHasher)
 * const account = await findCredentialAccount(email)
 * const ok = await verifier.verifyOrDummy(account?.password, body.password)
 * if (!account || !ok) throw new AuthError('INVALID_EMAIL_OR_PASSWORD')
 */
export function createTimingSafeVerifier(hasher: PasswordHasher): TimingSafeVerifier {
  let dummy: Promise<string> | undefined

  function dummyHash(): Promise<string> {
    // Made on the first miss, not at start-up: nothing of the CSPRNG is loaded before a request needs it.
    const params = scryptHashers.get(hasher)
    if (dummy === undefined && params !== undefined) dummy = Promise.resolve(syntheticScryptHash(params))
    if (dummy === undefined) {
      // A random password nobody knows: even a user typing the "right" one gets false below.
      const pending = hasher.hash(cryptoRandom.string(32))
      dummy = pending
      // A failure is not cached, so the next miss tries again.
      pending.catch(() => {
        if (dummy === pending) dummy = undefined
      })
    }
    return dummy
  }

  return {
    async verifyOrDummy(hash, password) {
      if (typeof hash === 'string' && hash.length > 0) return hasher.verify({ hash, password })
      await hasher.verify({ hash: await dummyHash(), password })
      return false
    },
    async prepare() {
      // A scrypt hasher's dummy costs no derivation: made on the first miss, it adds nothing a caller could time.
      if (!scryptHashers.has(hasher)) await dummyHash()
    },
  }
}

/**
 * A well-formed scrypt hash of `params` whose key is random bytes rather
 * than a derived key. Verifying a password against it costs exactly what
 * verifying against a real hash of those parameters costs (parse, one full
 * derivation with the same N, r, p and key length, a constant-time compare)
 * and can never succeed, so a scrypt hasher's dummy needs no key derivation
 * of its own: start-up does not wait for one, nor hold its memory
 * (docs/passwords.md#same-cost-for-unknown-users).
 */
function syntheticScryptHash(params: ScryptParams): string {
  return formatScryptHash(params, cryptoRandom.bytes(SALT_LENGTH), cryptoRandom.bytes(params.keyLength))
}
