/**
 * @module
 * SHA-256 and HMAC-SHA256 for the hot path (every request verifies a signed
 * cookie and hashes a session token). On Node, node:crypto runs them in
 * native code, several times faster than pure JS; elsewhere (edge runtimes,
 * browsers) @noble/hashes gives the same bytes. node:crypto is taken with
 * `process.getBuiltinModule` (Node 20.16+), which is synchronous and needs no
 * import a bundler for another runtime would have to resolve.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { base64url } from 'oslo/encoding'

interface NodeHash {
  update(data: string): NodeHash
  digest(encoding: 'base64url'): string
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): NodeHash
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHash
}

export interface Primitives {
  readonly backend: 'node' | 'noble'
  /** SHA-256 of the UTF-8 text, base64url without padding. */
  sha256Base64url(text: string): string
  /** HMAC-SHA256 of the UTF-8 text under `key`, base64url without padding. */
  hmacSha256Base64url(key: Uint8Array, text: string): string
}

export const noblePrimitives: Primitives = {
  backend: 'noble',
  sha256Base64url: (text) => base64url.encode(sha256(utf8ToBytes(text)), { includePadding: false }),
  hmacSha256Base64url: (key, text) => base64url.encode(hmac(sha256, key, utf8ToBytes(text)), { includePadding: false }),
}

function nodePrimitives(crypto: NodeCrypto): Primitives {
  return {
    backend: 'node',
    sha256Base64url: (text) => crypto.createHash('sha256').update(text).digest('base64url'),
    hmacSha256Base64url: (key, text) => crypto.createHmac('sha256', key).update(text).digest('base64url'),
  }
}

function loadNodeCrypto(): NodeCrypto | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process
  const loaded = runtime?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined
  return typeof loaded?.createHmac === 'function' && typeof loaded.createHash === 'function'
    ? (loaded as NodeCrypto)
    : undefined
}

const nodeCrypto = loadNodeCrypto()

/** The fastest implementation this runtime offers. */
export const primitives: Primitives = nodeCrypto ? nodePrimitives(nodeCrypto) : noblePrimitives
