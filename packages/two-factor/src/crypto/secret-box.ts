/**
 * @module
 * The TOTP secret at rest (docs/two-factor.md#security): AES-256-GCM under a
 * key derived from the auth secret for this purpose only
 * (`two-factor:totp-secret`, HKDF as every derived key: docs/security.md),
 * with the user id as additional data, so a row copied onto another user
 * does not decrypt. Stored as `v1.<iv>.<ciphertext+tag>` in base64url.
 * Decryption tries every configured secret, newest first: rotating the auth
 * secret keeps existing setups working.
 */
import type { Secrets } from '@gatehouse/core'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

const PURPOSE = 'two-factor:totp-secret'
const VERSION = 'v1'

function aesKey(raw: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', own(raw), { name: 'AES-GCM' }, false, [usage])
}

/** A copy backed by a plain ArrayBuffer, the only kind WebCrypto's types accept. */
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes)
const encode = (bytes: Uint8Array) => encodeBase64urlNoPadding(bytes)
const utf8 = (text: string) => new TextEncoder().encode(text)

/**
 * @example
 * const stored = await sealSecret(ctx.secrets, userId, secretBytes, ctx.random.bytes(12))
 */
export async function sealSecret(secrets: Secrets, userId: string, secret: Uint8Array, iv: Uint8Array): Promise<string> {
  const key = await aesKey(secrets.key(PURPOSE), 'encrypt')
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: own(iv), additionalData: utf8(userId) }, key, own(secret))
  return `${VERSION}.${encode(iv)}.${encode(new Uint8Array(sealed))}`
}

/** The secret, or null when the text is malformed or no configured secret opens it. */
export async function openSecret(secrets: Secrets, userId: string, stored: string): Promise<Uint8Array | null> {
  const [version, ivText, sealedText] = stored.split('.')
  if (version !== VERSION || !ivText || !sealedText) return null
  let iv: Uint8Array
  let sealed: Uint8Array
  try {
    iv = decodeBase64urlIgnorePadding(ivText)
    sealed = decodeBase64urlIgnorePadding(sealedText)
  } catch {
    return null
  }
  for (const raw of secrets.keys(PURPOSE)) {
    try {
      const key = await aesKey(raw, 'decrypt')
      return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: own(iv), additionalData: utf8(userId) }, key, own(sealed)))
    } catch {
      // Another secret of the rotation list may have sealed it.
    }
  }
  return null
}
