/**
 * @module
 * Codes, tokens and client secrets: 32 characters from the context's CSPRNG
 * (about 190 bits), kept only as SHA-256 digests. A digest of a
 * high-entropy value needs no slow hash: nothing can be guessed from it.
 * Lookups go by digest; a secret is checked by comparing digests in
 * constant time.
 */
import { constantTimeEqual, type Random } from '@gatehouse/core'

/** Length of codes, tokens and client ids (docs/oidc-provider.md#tokens). */
export const TOKEN_LENGTH = 32
/** Client secrets are longer: they are long-lived credentials. */
export const CLIENT_SECRET_LENGTH = 48

const encoder = new TextEncoder()

/** A fresh random code or token. */
export function generateOpaqueToken(random: Random, length = TOKEN_LENGTH): string {
  return random.string(length)
}

/** SHA-256 of `value`, base64url without padding: the stored form of codes, tokens and secrets. */
export async function digest(value: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value)))
  return base64url(bytes)
}

/** Whether `presented` hashes to `storedDigest`, without leaking where they differ. */
export async function matchesDigest(presented: string, storedDigest: string): Promise<boolean> {
  return constantTimeEqual(await digest(presented), storedDigest)
}

export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
