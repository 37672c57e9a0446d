/**
 * @module
 * The password service of one `createAuth`: the configured (or default
 * scrypt) hasher, the timing-safe verifier for unknown users, and the length
 * policy (8..128 by default; too long is refused, never truncated:
 * docs/passwords.md#no-truncation). It takes only the `emailAndPassword`
 * group; the context names its interface, declared in `types/services.ts`.
 *
 * A password over the maximum never reaches the hasher, on any path: NFKC
 * can expand one code point 18-fold, so a 1 MiB body would otherwise cost
 * ~100 ms of event loop before any account is looked at
 * (docs/passwords.md#bounded-input). The length itself is measured in
 * bounded time, whatever the input's size.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import {
  createTimingSafeVerifier,
  DEFAULT_SCRYPT_PARAMS,
  defaultPasswordHasher,
  scryptHashIsWeaker,
  scryptPasswordHasher,
  type PasswordHasher,
  type ScryptParams,
} from '../password/index.js'
import { withinLimits } from '../password/scrypt-format.js'
import type { EmailAndPasswordOptions } from '../types/options.js'
import type { PasswordService } from '../types/services.js'

/** Default `emailAndPassword.maxPasswordLength`, in code points. */
export const DEFAULT_MAX_PASSWORD_LENGTH = 128
/** Default `emailAndPassword.minPasswordLength`, in code points. */
export const DEFAULT_MIN_PASSWORD_LENGTH = 8

/**
 * @example
 * const passwords = createPasswordService({ emailAndPassword: { enabled: true } })
 * passwords.checkLength('short') // throws "Password too short"
 */
export function createPasswordService(options: { readonly emailAndPassword?: EmailAndPasswordOptions | undefined }): PasswordService {
  const configured = options.emailAndPassword?.password
  const scrypt = scryptHasher(configured)
  // The scrypt hasher itself when nothing is replaced: its timing-safe dummy needs no derivation (password-hasher.ts).
  const hasher: PasswordHasher =
    configured?.hash === undefined && configured?.verify === undefined
      ? scrypt
      : { hash: configured?.hash ?? scrypt.hash, verify: configured?.verify ?? scrypt.verify }
  const timingSafe = createTimingSafeVerifier(hasher)
  const min = options.emailAndPassword?.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH
  const max = options.emailAndPassword?.maxPasswordLength ?? DEFAULT_MAX_PASSWORD_LENGTH
  const tooLong = (password: string) => codePointsUpTo(password, max) > max
  return {
    hash: (password) => hasher.hash(password),
    verify: async (hash, password) => !tooLong(password) && hasher.verify({ hash, password }),
    async verifyOrDummy(hash, password) {
      if (!tooLong(password)) return timingSafe.verifyOrDummy(hash, password)
      // Refused, but only after the work a wrong password costs (one derivation, against the
      // real hash when there is one), so neither the length nor the account shows in the timing
      // (docs/passwords.md#bounded-input). The stand-in is bounded; its result is never used.
      await timingSafe.verifyOrDummy(hash, password.slice(0, max))
      return false
    },
    checkLength(password) {
      const length = codePointsUpTo(password, max)
      // The limits travel beside the fixed message, so a form can say "at least 8 characters" (docs/passwords.md#no-truncation).
      if (length < min) throw new AuthError(CoreErrors.PASSWORD_TOO_SHORT, { details: { minLength: min } })
      if (length > max) throw new AuthError(CoreErrors.PASSWORD_TOO_LONG, { details: { maxLength: max } })
    },
    prepare: () => timingSafe.prepare(),
    // New hashes are scrypt's unless `hash` is replaced: only then can a stored one be weaker than them.
    needsRehash: (hash) => configured?.hash === undefined && scryptHashIsWeaker(scrypt, hash),
  }
}

/**
 * The scrypt hasher of `password.scrypt` (docs/passwords.md#raising-the-cost): the default one
 * when nothing is raised. Parameters outside what a stored hash may ask for (`SCRYPT_LIMITS`)
 * throw at start-up: hashes made with them would never verify.
 */
function scryptHasher(configured: EmailAndPasswordOptions['password']): PasswordHasher {
  const wanted = configured?.scrypt
  if (wanted === undefined) return defaultPasswordHasher
  if (configured?.hash !== undefined) {
    throw new TypeError('emailAndPassword.password: `scrypt` sets the cost of the built-in hasher, which a replaced `hash` does not use')
  }
  const params: ScryptParams = {
    N: wanted.N ?? DEFAULT_SCRYPT_PARAMS.N,
    r: wanted.r ?? DEFAULT_SCRYPT_PARAMS.r,
    p: wanted.p ?? DEFAULT_SCRYPT_PARAMS.p,
    keyLength: DEFAULT_SCRYPT_PARAMS.keyLength,
  }
  if (!withinLimits(params)) {
    throw new RangeError(
      `emailAndPassword.password.scrypt: N must be a power of two up to 2^20, r at most 64, p at most 16, 128·N·r at most 128 MiB and N·r·p at most 2^22; got N=${params.N}, r=${params.r}, p=${params.p}`,
    )
  }
  const isDefault = params.N === DEFAULT_SCRYPT_PARAMS.N && params.r === DEFAULT_SCRYPT_PARAMS.r && params.p === DEFAULT_SCRYPT_PARAMS.p
  return isDefault ? defaultPasswordHasher : scryptPasswordHasher(params)
}

/**
 * The length in code points (an emoji counts as one character, not two
 * UTF-16 units), counted only up to `limit + 1`: a code point is one or two
 * UTF-16 units, so more than `2 * limit` units is over the limit without
 * looking at them. Any result above `limit` means "too long".
 */
function codePointsUpTo(password: string, limit: number): number {
  if (password.length > 2 * limit) return limit + 1
  let count = 0
  for (const _ of password) {
    count += 1
    if (count > limit) break
  }
  return count
}
