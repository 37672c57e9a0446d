/**
 * @module
 * Provider tokens at rest (docs/social.md#token-storage): the access, refresh
 * and ID tokens of an account are stored AES-256-GCM encrypted under a key
 * derived from the secret for this purpose only (HKDF info
 * `account-token`). A database dump therefore holds no usable provider token.
 * The additional data binds each ciphertext to its column and account, so a
 * value copied into another row or column does not decrypt. Stored form:
 * `v1.<iv>.<ciphertext+tag>`, base64url; decryption tries every configured
 * secret, so rotating the secret keeps old rows readable.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import { sharedKey, sharedKeys, type Secrets } from '../crypto/keys.js'

const PURPOSE = 'account-token'
const VERSION = 'v1'
const IV_BYTES = 12

export type TokenField = 'accessToken' | 'refreshToken' | 'idToken'

/** What a ciphertext is bound to. */
export interface TokenBinding {
  readonly providerId: string
  readonly accountId: string
}

const imported = new WeakMap<Uint8Array, Promise<CryptoKey>>()

function aesKey(raw: Uint8Array): Promise<CryptoKey> {
  let key = imported.get(raw)
  if (!key) {
    key = crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt'])
    imported.set(raw, key)
  }
  return key
}

function additionalData(field: TokenField, binding: TokenBinding): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify([PURPOSE, field, binding.providerId, binding.accountId]))
}

/**
 * @example
 * const stored = await encryptToken(secrets, 'accessToken', { providerId: 'github', accountId: '42' }, tokens.accessToken)
 */
export async function encryptToken(secrets: Secrets, field: TokenField, binding: TokenBinding, token: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const key = await aesKey(sharedKey(secrets, PURPOSE))
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: additionalData(field, binding) },
    key,
    new TextEncoder().encode(token),
  )
  return `${VERSION}.${encode(iv)}.${encode(new Uint8Array(sealed))}`
}

/**
 * The token, or null when the value is absent, not ours, tampered with, or bound to another account or column.
 *
 * @example
 * const token = await decryptToken(secrets, 'accessToken', { providerId: account.providerId, accountId: account.accountId }, account.accessToken)
 */
export async function decryptToken(
  secrets: Secrets,
  field: TokenField,
  binding: TokenBinding,
  stored: string | null | undefined,
): Promise<string | null> {
  if (!stored) return null
  const [version, ivText, sealedText, extra] = stored.split('.')
  if (version !== VERSION || ivText === undefined || sealedText === undefined || extra !== undefined) return null
  let iv: Uint8Array<ArrayBuffer>
  let sealed: Uint8Array<ArrayBuffer>
  try {
    iv = decode(ivText)
    sealed = decode(sealedText)
  } catch {
    return null
  }
  if (iv.length !== IV_BYTES) return null
  for (const raw of sharedKeys(secrets, PURPOSE)) {
    try {
      const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: additionalData(field, binding) }, await aesKey(raw), sealed)
      return new TextDecoder().decode(opened)
    } catch {
      // Another secret of the rotation may have sealed it.
    }
  }
  return null
}

function encode(bytes: Uint8Array): string {
  return encodeBase64urlNoPadding(bytes)
}

function decode(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(decodeBase64urlIgnorePadding(text))
}
