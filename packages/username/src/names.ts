/**
 * @module
 * One name, two forms (docs/username.md#normalisation):
 *
 * - `username`, the form that is unique and looked up: NFKC (so the
 *   full-width `Ａｄａ` and a ligature `ﬁ` are their plain letters), then
 *   case-folded (lower, upper, then lower case, so `ß` folds with `ss` and the Greek
 *   final sigma with sigma), then NFKC again, as case mapping may leave a
 *   non-normalised string. Two names a person would read as the same name
 *   cannot belong to two accounts.
 * - `displayUsername`, as typed, NFKC only: what the app shows.
 *
 * The validation runs on the normalised form, after a bound on the typed
 * length: normalisation can lengthen a string (one character can become
 * eighteen), so a huge input is refused before any of it is normalised.
 */
import { AuthError } from '@gatehouse/core'
import { UsernameErrors } from './errors.js'
import type { ResolvedUsernameOptions } from './options.js'

/** Characters typed beyond this multiple of the maximum are refused unread. */
const TYPED_LENGTH_FACTOR = 4

export function normalizeUsername(typed: string): string {
  return typed.normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().normalize('NFKC')
}

/** Length in characters as people count them (code points), not UTF-16 units. */
function length(text: string): number {
  let count = 0
  for (const _ of text) count += 1
  return count
}

/**
 * The normalised username, or the error that says why it is not allowed
 * (too short, too long, invalid characters). Reserved names are the caller's
 * concern: they are "taken", not invalid.
 *
 * @example
 * checkUsername(options, 'Ada_Lovelace') // { ok: true, username: 'ada_lovelace' }
 */
export async function checkUsername(
  options: ResolvedUsernameOptions,
  typed: string,
): Promise<{ readonly ok: true; readonly username: string } | { readonly ok: false; readonly error: AuthError }> {
  if (typed.length > options.maxUsernameLength * TYPED_LENGTH_FACTOR) return { ok: false, error: new AuthError(UsernameErrors.USERNAME_TOO_LONG) }
  const username = normalizeUsername(typed)
  const size = length(username)
  if (size < options.minUsernameLength) return { ok: false, error: new AuthError(UsernameErrors.USERNAME_TOO_SHORT) }
  if (size > options.maxUsernameLength) return { ok: false, error: new AuthError(UsernameErrors.USERNAME_TOO_LONG) }
  if (!(await options.usernameValidator(username))) return { ok: false, error: new AuthError(UsernameErrors.INVALID_USERNAME) }
  return { ok: true, username }
}

/** The display form of `typed` (NFKC), or INVALID_DISPLAY_USERNAME. */
export async function checkDisplayUsername(options: ResolvedUsernameOptions, typed: string): Promise<string> {
  if (typed.length > options.maxDisplayUsernameLength * TYPED_LENGTH_FACTOR) throw new AuthError(UsernameErrors.INVALID_DISPLAY_USERNAME)
  const display = typed.normalize('NFKC')
  if (length(display) > options.maxDisplayUsernameLength || !(await options.displayUsernameValidator(display))) {
    throw new AuthError(UsernameErrors.INVALID_DISPLAY_USERNAME)
  }
  return display
}
