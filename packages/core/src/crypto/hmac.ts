/**
 * @module
 * HMAC-SHA256 signatures over strings (RFC 2104), encoded as base64url without
 * padding so they fit in cookies and URLs unescaped. Verification accepts a list
 * of keys (newest first, from `Secrets.keys(purpose)`) so a secret rotation does
 * not sign everyone out, and compares in constant time so the signature cannot
 * be guessed byte by byte from response timing.
 */

import { constantTimeEqual } from './keys.js'
import { primitives } from './primitives.js'

/** Length of an encoded signature: 32 bytes as unpadded base64url. */
export const SIGNATURE_LENGTH = 43

/**
 * Signs `value` with `key`.
 *
 * @example
 * const signature = sign(sessionToken, secrets.key('cookie-signature'))
 */
export function sign(value: string, key: Uint8Array): string {
  return primitives.hmacSha256Base64url(key, value)
}

/**
 * True when `signature` is a valid HMAC of `value` under any of `keys`.
 * Every key is tried even after a match, so timing does not reveal which one matched.
 *
 * @example
 * if (!verify(token, signature, secrets.keys('cookie-signature'))) return null
 */
export function verify(value: string, signature: string, keys: readonly Uint8Array[]): boolean {
  // Any valid signature has this exact length; anything else is not worth hashing.
  if (signature.length !== SIGNATURE_LENGTH) return false
  let matched = false
  for (const key of keys) {
    if (constantTimeEqual(sign(value, key), signature)) matched = true
  }
  return matched
}
