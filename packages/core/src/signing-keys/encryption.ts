/**
 * @module
 * Private signing keys at rest: AES-256-GCM under a key derived from the auth
 * secret for this purpose only (HKDF, core's `secrets`), a fresh random 96-bit
 * IV per encryption, and the key's `kid` as associated data so a ciphertext
 * copied onto another row does not decrypt there. A database read therefore
 * yields no usable private key without the secret.
 *
 * Secret rotation: encryption uses the newest secret; decryption tries every
 * configured secret, newest first, and says which one worked so the caller can
 * re-encrypt rows still under an old one.
 *
 * Uses WebCrypto only, like jose, so it runs wherever the plugin runs.
 */
import type { Secrets } from '../crypto/keys.js'
import { base64url } from 'jose'

/** The HKDF `info` of the key-encryption key: no other use of the secret can produce it. Named for the plugin that first kept keys, and kept so: rows sealed under it must still open. */
export const KEY_ENCRYPTION_PURPOSE = 'oidc-provider:jwks-private-key'

/** Format version prefix, so the scheme can change without guessing at old rows. */
const VERSION = 'v1'
const IV_BYTES = 12

export type DecryptResult = { readonly ok: true; readonly plaintext: string; readonly staleSecret: boolean } | { readonly ok: false }

async function aesKey(raw: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'AES-GCM' }, false, [usage])
}

function associatedData(kid: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`gatehouse/jwks/${kid}`)
}

/**
 * @example
 * const stored = await encryptPrivateKey(ctx.auth.secrets, kid, JSON.stringify(privateJwk))
 * // "v1.<iv>.<ciphertext and tag>", all base64url
 */
export async function encryptPrivateKey(secrets: Secrets, kid: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const key = await aesKey(secrets.key(KEY_ENCRYPTION_PURPOSE), 'encrypt')
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: associatedData(kid) },
    key,
    new TextEncoder().encode(plaintext),
  )
  return `${VERSION}.${base64url.encode(iv)}.${base64url.encode(new Uint8Array(sealed))}`
}

/**
 * Opens what `encryptPrivateKey` sealed for the same `kid`. Any failure (wrong
 * secret, other kid, altered bytes, unknown format) is `{ ok: false }`.
 *
 * @example
 * const opened = await decryptPrivateKey(ctx.auth.secrets, row.id, row.privateKey)
 * if (opened.ok) privateJwk = JSON.parse(opened.plaintext)
 */
export async function decryptPrivateKey(secrets: Secrets, kid: string, stored: string): Promise<DecryptResult> {
  const parts = stored.split('.')
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false }
  let iv: Uint8Array<ArrayBuffer>
  let sealed: Uint8Array<ArrayBuffer>
  try {
    iv = base64url.decode(parts[1] as string) as Uint8Array<ArrayBuffer>
    sealed = base64url.decode(parts[2] as string) as Uint8Array<ArrayBuffer>
  } catch {
    return { ok: false }
  }
  if (iv.length !== IV_BYTES) return { ok: false }
  const candidates = secrets.keys(KEY_ENCRYPTION_PURPOSE)
  for (const [index, raw] of candidates.entries()) {
    try {
      const key = await aesKey(raw, 'decrypt')
      const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: associatedData(kid) }, key, sealed)
      return { ok: true, plaintext: new TextDecoder().decode(opened), staleSecret: index > 0 }
    } catch {
      // The tag did not verify under this secret: try the next (older) one.
    }
  }
  return { ok: false }
}
