/**
 * @module
 * Phone numbers in one form (docs/phone-number.md#numbers): parsed and
 * validated with libphonenumber-js (full metadata: the number must be a
 * possible and valid number of its country's plan), stored and compared in
 * E.164 (`+14155550100`). So `(415) 555-0100` with `defaultCountry: 'US'`,
 * `+1 415 555 0100` and `+14155550100` are one number, and one account.
 * Input longer than any number's notation is refused unread.
 */
import { AuthError } from '@gatehouse/core'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { PhoneNumberErrors } from './errors.js'
import type { ResolvedPhoneNumberOptions } from './options.js'

/** E.164 has at most 15 digits; spaces, dashes, brackets and an extension notation stay well under this. */
const MAX_TYPED_LENGTH = 64

/**
 * The number in E.164, or 400 INVALID_PHONE_NUMBER.
 *
 * @example
 * await normalizePhoneNumber(options, '(415) 555-0100') // '+14155550100' with defaultCountry 'US'
 */
export async function normalizePhoneNumber(options: Pick<ResolvedPhoneNumberOptions, 'defaultCountry' | 'phoneNumberValidator'>, typed: string): Promise<string> {
  if (typed.length > MAX_TYPED_LENGTH) throw new AuthError(PhoneNumberErrors.INVALID_PHONE_NUMBER)
  const parsed = parsePhoneNumberFromString(typed, options.defaultCountry ? { defaultCountry: options.defaultCountry } : undefined)
  if (!parsed || !parsed.isValid()) throw new AuthError(PhoneNumberErrors.INVALID_PHONE_NUMBER)
  const number = parsed.number
  if (options.phoneNumberValidator && !(await options.phoneNumberValidator(number))) throw new AuthError(PhoneNumberErrors.INVALID_PHONE_NUMBER)
  return number
}
