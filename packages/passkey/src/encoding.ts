/**
 * @module
 * base64url without padding (RFC 4648 §5), the encoding WebAuthn's JSON
 * serialisation uses for challenges, ids and keys. Web-standard `btoa`/`atob`
 * only, so the plugin runs on any runtime core runs on.
 */

/**
 * @example
 * toBase64url(new Uint8Array([251, 255])) // '-_8'
 */
export function toBase64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * @example
 * fromBase64url('-_8') // Uint8Array [251, 255]
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
