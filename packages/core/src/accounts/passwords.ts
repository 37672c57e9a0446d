/**
 * @module
 * The password service of one `createAuth`: the configured (or default
 * scrypt) hasher, the timing-safe verifier for unknown users, and the length
 * policy (8..128 by default; too long is refused, never truncated:
 * docs/passwords.md#no-truncation). It takes only the `emailAndPassword`
 * group, so it sits below the options and context types that name it.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { createTimingSafeVerifier, defaultPasswordHasher, type PasswordHasher } from '../password/index.js'
import type { EmailAndPasswordOptions } from '../types/options.js'

export interface PasswordService {
  hash(password: string): Promise<string>
  verify(hash: string, password: string): Promise<boolean>
  /** Verifies against a dummy hash when `hash` is absent, so a miss costs the same work as a wrong password. */
  verifyOrDummy(hash: string | null | undefined, password: string): Promise<boolean>
  /** Throws "Password too short" / "Password too long" (400). */
  checkLength(password: string): void
  /** Computes the dummy hash ahead of the first miss. */
  prepare(): Promise<void>
}

export function createPasswordService(options: { readonly emailAndPassword?: EmailAndPasswordOptions | undefined }): PasswordService {
  const configured = options.emailAndPassword?.password
  // The default hasher itself when nothing is replaced: its timing-safe dummy needs no derivation (password-hasher.ts).
  const hasher: PasswordHasher =
    configured?.hash === undefined && configured?.verify === undefined
      ? defaultPasswordHasher
      : { hash: configured?.hash ?? defaultPasswordHasher.hash, verify: configured?.verify ?? defaultPasswordHasher.verify }
  const timingSafe = createTimingSafeVerifier(hasher)
  const min = options.emailAndPassword?.minPasswordLength ?? 8
  const max = options.emailAndPassword?.maxPasswordLength ?? 128
  return {
    hash: (password) => hasher.hash(password),
    verify: (hash, password) => hasher.verify({ hash, password }),
    verifyOrDummy: (hash, password) => timingSafe.verifyOrDummy(hash, password),
    checkLength(password) {
      // Length in code points, so an emoji counts as one character, not two UTF-16 units.
      const length = [...password].length
      if (length < min) throw new AuthError(CoreErrors.PASSWORD_TOO_SHORT)
      if (length > max) throw new AuthError(CoreErrors.PASSWORD_TOO_LONG)
    },
    prepare: () => timingSafe.prepare(),
  }
}
