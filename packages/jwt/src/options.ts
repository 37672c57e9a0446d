/**
 * @module
 * The jwt plugin's options (docs/jwt.md#options): the leading library's
 * names, stricter bounds.
 */
import type { SessionWithUser, SigningAlgorithm } from '@gatehouse/core'

export interface JwtOptions {
  readonly jwt?: {
    /** `iss`. Default: the auth server's origin (`baseURL`'s). */
    readonly issuer?: string
    /** `aud`. Default: the auth server's origin. */
    readonly audience?: string | readonly string[]
    /** Lifetime: seconds, or `'30s'`, `'15m'`, `'1h'`. Default `'15m'`; at most a day. */
    readonly expirationTime?: number | string
    /** Claims added to the defaults; registered claims (iss, aud, exp, iat, nbf, jti, sub) are refused. */
    readonly definePayload?: (session: SessionWithUser) => Record<string, unknown> | Promise<Record<string, unknown>>
    /** `sub`. Default: the user's id. */
    readonly getSubject?: (session: SessionWithUser) => string | Promise<string>
  }
  readonly jwks?: {
    /** The signing algorithm. Default EdDSA (Ed25519): small keys, fast, no parameter choices to get wrong. */
    readonly keyPairConfig?: { readonly alg: SigningAlgorithm }
    /** Seconds a key signs before the next one takes over. Default 30 days. */
    readonly rotationInterval?: number
  }
  /** Leave out the `set-auth-jwt` header of get-session. */
  readonly disableSettingJwtHeader?: boolean
}

export interface ResolvedJwtOptions {
  readonly issuer: string | undefined
  readonly audience: string | readonly string[] | undefined
  readonly expiresIn: number
  readonly definePayload: NonNullable<JwtOptions['jwt']>['definePayload']
  readonly getSubject: NonNullable<JwtOptions['jwt']>['getSubject']
  readonly alg: SigningAlgorithm
  readonly rotationInterval: number | undefined
  readonly setHeader: boolean
}

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 }
export const MAX_JWT_SECONDS = 86_400

/**
 * @example
 * lifetimeSeconds('15m') // 900
 */
export function lifetimeSeconds(value: number | string): number {
  const seconds = typeof value === 'number' ? value : (() => {
    const match = /^(\d+)\s*([smhd])$/.exec(value.trim())
    if (!match) throw new RangeError(`jwt: expirationTime "${value}" is not seconds or a number with s, m, h or d`)
    return Number(match[1]) * (UNITS[match[2] as string] as number)
  })()
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_JWT_SECONDS) {
    throw new RangeError(`jwt: expirationTime must be from 1 second to a day (a session JWT cannot be revoked: docs/jwt.md#revocation)`)
  }
  return seconds
}

export function resolveJwtOptions(options: JwtOptions = {}): ResolvedJwtOptions {
  return {
    issuer: options.jwt?.issuer,
    audience: options.jwt?.audience,
    expiresIn: lifetimeSeconds(options.jwt?.expirationTime ?? '15m'),
    definePayload: options.jwt?.definePayload,
    getSubject: options.jwt?.getSubject,
    alg: options.jwks?.keyPairConfig?.alg ?? 'EdDSA',
    rotationInterval: options.jwks?.rotationInterval,
    setHeader: !options.disableSettingJwtHeader,
  }
}
