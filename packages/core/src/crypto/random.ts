/**
 * @module
 * Randomness as a dependency. Handlers read `ctx.random` so tests can swap in
 * {@link seededRandom} and get the same tokens on every run, while production
 * uses {@link cryptoRandom} (the platform CSPRNG, `crypto.getRandomValues`).
 *
 * Both share one string generator over a byte source: characters are chosen by
 * rejection sampling (mask each byte to the next power of two, drop values past
 * the alphabet), so every character is equally likely. Taking `byte % n` instead
 * would favour the first `256 % n` characters, shaving entropy off every token.
 */

import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'

/** Letters and digits: 62 characters, about 5.95 bits each. */
export const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Lowercase letters and digits: 36 characters, about 5.17 bits each (the delete-account token). */
export const LOWERCASE_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** The least entropy a bearer token may carry, in bits. */
export const MIN_TOKEN_BITS = 128

export interface Random {
  /** `length` uniformly random bytes. */
  bytes(length: number): Uint8Array
  /** `length` characters drawn uniformly from `alphabet` (default {@link ALPHANUMERIC}). */
  string(length: number, alphabet?: string): string
}

type ByteSource = (length: number) => Uint8Array

function characters(alphabet: string): readonly string[] {
  const chars = Array.from(alphabet)
  if (chars.length < 2 || chars.length > 256) {
    throw new RangeError(`An alphabet needs 2 to 256 characters, got ${chars.length}`)
  }
  if (new Set(chars).size !== chars.length) {
    // A repeated character is drawn twice as often, so the entropy sums lie.
    throw new RangeError('An alphabet must not repeat a character')
  }
  return chars
}

function assertLength(length: number): void {
  if (!Number.isInteger(length) || length < 0) {
    throw new RangeError(`A length must be a non-negative integer, got ${length}`)
  }
}

function stringFrom(source: ByteSource, length: number, alphabet: string): string {
  assertLength(length)
  const chars = characters(alphabet)
  const n = chars.length
  // Smallest all-ones mask covering n - 1: at most half of the masked values get rejected.
  let mask = 1
  while (mask < n - 1) mask = (mask << 1) | 1
  let result = ''
  let produced = 0
  while (produced < length) {
    // Ask for a little more than needed so one draw usually suffices.
    const batch = source(Math.ceil((length - produced) * 1.3) + 8)
    for (const byte of batch) {
      const index = byte & mask
      if (index >= n) continue
      result += chars[index]
      produced += 1
      if (produced === length) break
    }
  }
  return result
}

function fromByteSource(source: ByteSource): Random {
  return {
    bytes(length) {
      assertLength(length)
      return source(length)
    },
    string(length, alphabet = ALPHANUMERIC) {
      return stringFrom(source, length, alphabet)
    },
  }
}

/** `crypto.getRandomValues` fills at most 65536 bytes per call. */
const MAX_GET_RANDOM_VALUES = 65_536

/**
 * The platform CSPRNG (Web Crypto, available in Node 20+, Deno, Bun, workers and browsers).
 *
 * @example
 * const sessionToken = cryptoRandom.string(32)
 * const salt = cryptoRandom.bytes(16)
 */
export const cryptoRandom: Random = fromByteSource((length) => {
  const out = new Uint8Array(length)
  for (let offset = 0; offset < length; offset += MAX_GET_RANDOM_VALUES) {
    crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + MAX_GET_RANDOM_VALUES)))
  }
  return out
})

/**
 * A deterministic byte stream for tests: SHA-256 over (seed, counter). The same
 * seed always yields the same tokens, so test expectations can be exact.
 *
 * NOT FOR PRODUCTION: anyone who knows or guesses the seed can predict every
 * token it ever produces.
 *
 * @example
 * const random = seededRandom('sign-in test')
 * expect(random.string(8)).toBe(seededRandom('sign-in test').string(8))
 */
export function seededRandom(seed: string | number): Random {
  const seedBytes = utf8ToBytes(`gatehouse-seeded-random:${String(seed)}`)
  let counter = 0
  let pool = new Uint8Array(0)
  let position = 0
  return fromByteSource((length) => {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) {
      if (position === pool.length) {
        const block = new Uint8Array(4)
        new DataView(block.buffer).setUint32(0, counter)
        counter += 1
        pool = sha256(concatBytes(seedBytes, block))
        position = 0
      }
      out[i] = pool[position] ?? 0
      position += 1
    }
    return out
  })
}

/** Entropy in bits of a `length`-character string drawn uniformly from `alphabet`. */
export function entropyBits(length: number, alphabet: string = ALPHANUMERIC): number {
  return length * Math.log2(characters(alphabet).length)
}

/**
 * A bearer token (session token, verification or reset token). The default,
 * 32 characters of {@link ALPHANUMERIC}, carries about 190 bits. Anything below
 * {@link MIN_TOKEN_BITS} throws: such a token could be guessed online given
 * enough requests, and the caller asking for one is a bug.
 *
 * @example
 * const token = generateToken(ctx.random)             // 32 chars, ~190 bits
 * const resetToken = generateToken(ctx.random, 24)    // a reset token: 24 letters and digits, ~143 bits
 * const deleteToken = generateToken(ctx.random, 32, LOWERCASE_ALPHANUMERIC)
 */
export function generateToken(random: Random, length = 32, alphabet: string = ALPHANUMERIC): string {
  const bits = entropyBits(length, alphabet)
  if (bits < MIN_TOKEN_BITS) {
    throw new RangeError(
      `A token of ${length} characters from a ${Array.from(alphabet).length}-character alphabet carries ${bits.toFixed(1)} bits; at least ${MIN_TOKEN_BITS} are required`,
    )
  }
  return random.string(length, alphabet)
}
