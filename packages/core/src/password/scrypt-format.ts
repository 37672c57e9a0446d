/**
 * @module
 * The stored form of a password hash, and the limits a stored hash must respect.
 *
 * Our format records every scrypt parameter next to the salt and key:
 *
 *     scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>
 *     scrypt$16384$16$1$q2Vf...$Zt0x...
 *
 * so the defaults can be raised later and hashes made before still verify with
 * the parameters they were made with. The key length is the decoded key's length.
 *
 * Also read: the hex format `<salt hex>:<key hex>` that other auth libraries
 * store (scrypt N=16384, r=16, p=1, 64-byte key, the salt's hex *text* used as
 * the salt input). Parsing it lets users move their tables over unchanged.
 *
 * Parsing never throws: anything malformed yields `undefined`, and the caller
 * treats it as "wrong password". Parameters are capped before any key is
 * derived, because a tampered or corrupted row must not make one sign-in take
 * minutes or gigabytes (a denial of service through the database).
 */

import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

/** The scrypt cost parameters (RFC 7914 §2) and the derived key's length in bytes. */
export interface ScryptParams {
  readonly N: number
  readonly r: number
  readonly p: number
  readonly keyLength: number
}

/**
 * Parameters of new hashes: N=2^14, r=16, p=1, 64-byte key. 128·N·r = 32 MiB of
 * memory and about 100 ms of one core per hash on a 2024 server core.
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = Object.freeze({ N: 16384, r: 16, p: 1, keyLength: 64 })

/** Bytes of fresh randomness per hash: 128 bits make salt collisions negligible. */
export const SALT_LENGTH = 16

/**
 * Upper bounds for parameters read from a stored hash. They leave room to raise
 * the defaults (4x the memory, 16x the work) while refusing values that would
 * allocate gigabytes or run for minutes.
 */
export const SCRYPT_LIMITS = Object.freeze({
  maxN: 2 ** 20,
  maxR: 64,
  maxP: 16,
  /** 128·N·r, the size of scrypt's V array: 128 MiB. */
  maxMemoryBytes: 128 * 2 ** 20,
  /** N·r·p, proportional to the CPU time: 16x the default's 2^18. */
  maxWork: 2 ** 22,
  minSaltBytes: 8,
  maxSaltBytes: 128,
  minKeyBytes: 16,
  maxKeyBytes: 256,
})

/** A stored hash taken apart: what to derive and what to compare against. */
export interface ParsedPasswordHash {
  readonly format: 'scrypt' | 'hex'
  readonly params: ScryptParams
  /** The exact bytes given to scrypt as salt. */
  readonly salt: Uint8Array
  readonly key: Uint8Array
}

const PREFIX = 'scrypt'
const DECIMAL = /^[1-9][0-9]{0,9}$/
const BASE64URL = /^[A-Za-z0-9_-]+$/
const HEX_SALT = /^[0-9a-fA-F]{16,256}$/
const HEX_KEY = /^[0-9a-fA-F]{128}$/

/**
 * Writes a hash in our format.
 *
 * @example
 * formatScryptHash(DEFAULT_SCRYPT_PARAMS, salt, key) // 'scrypt$16384$16$1$...$...'
 */
export function formatScryptHash(params: ScryptParams, salt: Uint8Array, key: Uint8Array): string {
  if (key.length !== params.keyLength) throw new RangeError('The key length does not match the parameters')
  const encode = (bytes: Uint8Array) => encodeBase64urlNoPadding(bytes)
  return [PREFIX, params.N, params.r, params.p, encode(salt), encode(key)].join('$')
}

/**
 * Reads a stored hash in our format or the hex format; `undefined` if it is
 * malformed or asks for parameters outside {@link SCRYPT_LIMITS}.
 *
 * @example
 * const parsed = parsePasswordHash(row.password)
 * if (parsed === undefined) return false
 */
export function parsePasswordHash(hash: string): ParsedPasswordHash | undefined {
  if (typeof hash !== 'string') return undefined
  if (hash.startsWith(`${PREFIX}$`)) return parseScrypt(hash)
  return parseHex(hash)
}

/**
 * Whether scrypt may run with these parameters: RFC 7914's rules (N a power of
 * two above 1, r and p positive) plus our caps.
 *
 * @example
 * withinLimits({ N: 2 ** 30, r: 16, p: 1, keyLength: 64 }) // false
 */
export function withinLimits(params: ScryptParams): boolean {
  const { N, r, p, keyLength } = params
  const integers = [N, r, p, keyLength].every((value) => Number.isSafeInteger(value) && value >= 1)
  if (!integers) return false
  // A power of two has a single bit set; N is below 2^31 here so 32-bit ops are exact.
  if (N < 2 || N > SCRYPT_LIMITS.maxN || (N & (N - 1)) !== 0) return false
  if (r > SCRYPT_LIMITS.maxR || p > SCRYPT_LIMITS.maxP) return false
  if (128 * N * r > SCRYPT_LIMITS.maxMemoryBytes) return false
  if (N * r * p > SCRYPT_LIMITS.maxWork) return false
  return keyLength >= SCRYPT_LIMITS.minKeyBytes && keyLength <= SCRYPT_LIMITS.maxKeyBytes
}

function parseScrypt(hash: string): ParsedPasswordHash | undefined {
  const parts = hash.split('$')
  if (parts.length !== 6) return undefined
  const [, n, r, p, salt, key] = parts
  const N = decimal(n)
  const blockSize = decimal(r)
  const parallelism = decimal(p)
  const saltBytes = decodeBase64url(salt)
  const keyBytes = decodeBase64url(key)
  if (N === undefined || blockSize === undefined || parallelism === undefined) return undefined
  if (saltBytes === undefined || keyBytes === undefined) return undefined
  if (saltBytes.length < SCRYPT_LIMITS.minSaltBytes || saltBytes.length > SCRYPT_LIMITS.maxSaltBytes) {
    return undefined
  }
  const params: ScryptParams = { N, r: blockSize, p: parallelism, keyLength: keyBytes.length }
  if (!withinLimits(params)) return undefined
  return { format: 'scrypt', params, salt: saltBytes, key: keyBytes }
}

function parseHex(hash: string): ParsedPasswordHash | undefined {
  const parts = hash.split(':')
  if (parts.length !== 2) return undefined
  const [salt, key] = parts
  if (salt === undefined || key === undefined || !HEX_SALT.test(salt) || !HEX_KEY.test(key)) return undefined
  // The other libraries feed the salt's hex text, not the bytes it spells, to scrypt.
  return { format: 'hex', params: DEFAULT_SCRYPT_PARAMS, salt: utf8ToBytes(salt), key: hexToBytes(key.toLowerCase()) }
}

function decimal(text: string | undefined): number | undefined {
  if (text === undefined || !DECIMAL.test(text)) return undefined
  return Number(text)
}

/**
 * Strict base64url without padding: only the alphabet, no impossible length,
 * and the canonical spelling (unused trailing bits zero), so one hash has one
 * stored form.
 */
function decodeBase64url(text: string | undefined): Uint8Array | undefined {
  if (text === undefined || !BASE64URL.test(text) || text.length % 4 === 1) return undefined
  try {
    const bytes = decodeBase64urlIgnorePadding(text)
    return encodeBase64urlNoPadding(bytes) === text ? bytes : undefined
  } catch {
    return undefined
  }
}
