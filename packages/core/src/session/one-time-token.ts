/**
 * @module
 * One-time tokens (docs/sessions.md#one-time-tokens): a single-use token,
 * alive for minutes, that hands the caller's session to another origin (an
 * app on another domain, a web view of a mobile app). The verification table
 * keeps the token's SHA-256 as the identifier and the session token sealed
 * under a key derived from the one-time token itself (HMAC with the secret's
 * `one-time-token` key, then AES-256-GCM): a database dump holds neither a
 * usable one-time token nor a session token. Redeeming is the adapter's
 * atomic consume, so of two parallel redemptions exactly one wins.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import { sha256Base64url, sharedKeys } from '../crypto/keys.js'
import { sign } from '../crypto/hmac.js'
import { generateToken } from '../crypto/random.js'
import type { Row } from '../db/adapter.js'
import type { AuthContext } from '../endpoint/context.js'
import type { GatehouseOptions, OneTimeTokenOptions } from '../types/contract.js'

/** Three minutes, as the leading library's plugin. */
export const DEFAULT_ONE_TIME_TOKEN_SECONDS = 180
const MAX_ONE_TIME_TOKEN_SECONDS = 3600
/** 32 letters and digits: about 190 bits. */
const TOKEN_LENGTH = 32
const PURPOSE = 'one-time-token'
const VERSION = 'v1'
const IV_BYTES = 12

/** The resolved options, or null when one-time tokens are off. */
export function oneTimeTokenSettings(options: GatehouseOptions): Required<Pick<OneTimeTokenOptions, 'expiresIn' | 'disableClientRequest'>> | null {
  const setting = options.oneTimeToken
  if (!setting) return null
  const chosen = setting === true ? {} : setting
  const expiresIn = chosen.expiresIn ?? DEFAULT_ONE_TIME_TOKEN_SECONDS
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_ONE_TIME_TOKEN_SECONDS) {
    throw new RangeError(`oneTimeToken.expiresIn must be a whole number of seconds from 1 to ${MAX_ONE_TIME_TOKEN_SECONDS}`)
  }
  return { expiresIn, disableClientRequest: chosen.disableClientRequest ?? false }
}

const identifier = (token: string) => `${PURPOSE}:${sha256Base64url(token)}`

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'random' | 'secrets'>

async function aesKey(token: string, secret: Uint8Array): Promise<CryptoKey> {
  const raw = decodeBase64urlIgnorePadding(sign(token, secret)) as Uint8Array<ArrayBuffer>
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

/**
 * A fresh one-time token for the session whose (unhashed) token is `sessionToken`.
 *
 * @example
 * const token = await createOneTimeToken(ctx, sessionToken, 180)
 */
export async function createOneTimeToken(ctx: Ctx, sessionToken: string, expiresInSeconds: number): Promise<string> {
  const token = generateToken(ctx.random, TOKEN_LENGTH)
  const [newest] = sharedKeys(ctx.secrets, PURPOSE)
  if (!newest) throw new Error('No secret configured')
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(token, newest), new TextEncoder().encode(sessionToken))
  await ctx.db.create({
    model: 'verification',
    data: {
      identifier: identifier(token),
      value: `${VERSION}.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(sealed))}`,
      expiresAt: new Date(ctx.clock.now().getTime() + expiresInSeconds * 1000),
    },
  })
  return token
}

/**
 * Consumes `token` and answers the session token it hands over, or null when
 * the token is unknown, used, expired or does not open its row.
 *
 * @example
 * const sessionToken = await redeemOneTimeToken(ctx, body.token)
 */
export async function redeemOneTimeToken(ctx: Ctx, token: string): Promise<string | null> {
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(token) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  const [version, ivText, sealedText, extra] = row.value.split('.')
  if (version !== VERSION || !ivText || !sealedText || extra !== undefined) return null
  let iv: Uint8Array<ArrayBuffer>
  let sealed: Uint8Array<ArrayBuffer>
  try {
    iv = decodeBase64urlIgnorePadding(ivText) as Uint8Array<ArrayBuffer>
    sealed = decodeBase64urlIgnorePadding(sealedText) as Uint8Array<ArrayBuffer>
  } catch {
    return null
  }
  // Every configured secret, newest first: a rotation within the token's minutes does not void it.
  for (const secret of sharedKeys(ctx.secrets, PURPOSE)) {
    try {
      const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await aesKey(token, secret), sealed)
      return new TextDecoder().decode(opened)
    } catch {
      // Not under this secret: try the next.
    }
  }
  return null
}
