/**
 * @module
 * The plugin's options and their defaults (docs/api-key.md#options). The
 * names are the leading library's, so a configuration moves over as it is.
 */
import type { Statements } from './services/permissions.js'

export interface ApiKeyOptions {
  /** The header (or headers, first found wins) a request carries its key in. Default `x-api-key`. */
  readonly apiKeyHeaders?: string | readonly string[]
  /** A request carrying a key is served as the key's owner on routes that allow it (docs/api-key.md#using-a-key). Default true. */
  readonly enableSessionForAPIKeys?: boolean
  /** Characters of randomness after the prefix, from 52 letters: 5.7 bits each. Default 64 (365 bits); at least 32. */
  readonly defaultKeyLength?: number
  /** Put before every key that does not name its own prefix, e.g. `gh_`. */
  readonly defaultPrefix?: string
  readonly minimumPrefixLength?: number
  readonly maximumPrefixLength?: number
  readonly minimumNameLength?: number
  readonly maximumNameLength?: number
  readonly requireName?: boolean
  /** Accept `metadata` (a JSON object) on create and update. Default false. */
  readonly enableMetadata?: boolean
  readonly keyExpiration?: {
    /** Seconds; null: keys without `expiresIn` never expire. Default null. */
    readonly defaultExpiresIn?: number | null
    readonly disableCustomExpiresTime?: boolean
    /** Days. Default 1. */
    readonly minExpiresIn?: number
    /** Days. Default 365. */
    readonly maxExpiresIn?: number
  }
  /** Each key's own limit, in milliseconds and requests; counted in core's rate-limit store (docs/api-key.md#rate-limit). */
  readonly rateLimit?: {
    readonly enabled?: boolean
    /** Default 60 000 (a minute). */
    readonly timeWindow?: number
    /** Default 600. */
    readonly maxRequests?: number
  }
  readonly startingCharactersConfig?: { readonly shouldStore?: boolean; readonly charactersLength?: number }
  readonly permissions?: {
    /** Permissions of a key created without any (server-side creates may name them). */
    readonly defaultPermissions?: Statements | ((referenceId: string) => Statements | Promise<Statements>)
  }
}

export interface ResolvedApiKeyOptions {
  readonly headers: readonly string[]
  readonly sessions: boolean
  readonly keyLength: number
  readonly defaultPrefix: string | undefined
  readonly prefixLength: { readonly min: number; readonly max: number }
  readonly nameLength: { readonly min: number; readonly max: number }
  readonly requireName: boolean
  readonly enableMetadata: boolean
  readonly expiration: { readonly defaultExpiresIn: number | null; readonly disableCustom: boolean; readonly minDays: number; readonly maxDays: number }
  readonly rateLimit: { readonly enabled: boolean; readonly timeWindow: number; readonly maxRequests: number }
  readonly start: { readonly store: boolean; readonly length: number }
  readonly defaultPermissions: NonNullable<ApiKeyOptions['permissions']>['defaultPermissions']
}

/** 52 letters, as the leading library's keys: nothing a shell or a URL needs quoted. */
export const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** 32 letters carry 182 bits: above the 128 every token must have (docs/security.md#tokens-and-randomness-cryptorandomts). */
export const MIN_KEY_LENGTH = 32

/**
 * @example
 * resolveApiKeyOptions({}).headers // ['x-api-key']
 */
export function resolveApiKeyOptions(options: ApiKeyOptions = {}): ResolvedApiKeyOptions {
  const keyLength = options.defaultKeyLength ?? 64
  if (!Number.isInteger(keyLength) || keyLength < MIN_KEY_LENGTH || keyLength > 256) {
    throw new RangeError(`api-key: defaultKeyLength must be a whole number from ${MIN_KEY_LENGTH} to 256`)
  }
  const headers = options.apiKeyHeaders === undefined ? ['x-api-key'] : typeof options.apiKeyHeaders === 'string' ? [options.apiKeyHeaders] : [...options.apiKeyHeaders]
  for (const header of headers) {
    // The session's own headers must never be read as a key: a cookie would be "a key" no client meant.
    if (['cookie', 'authorization'].includes(header.toLowerCase())) throw new Error(`api-key: "${header}" cannot carry API keys`)
  }
  const timeWindow = options.rateLimit?.timeWindow ?? 60_000
  const maxRequests = options.rateLimit?.maxRequests ?? 600
  if (!(timeWindow >= 1000) || !(maxRequests >= 1)) throw new RangeError('api-key: rateLimit.timeWindow must be at least 1000 ms and maxRequests at least 1')
  return {
    headers: headers.map((header) => header.toLowerCase()),
    sessions: options.enableSessionForAPIKeys ?? true,
    keyLength,
    defaultPrefix: options.defaultPrefix,
    prefixLength: { min: options.minimumPrefixLength ?? 1, max: options.maximumPrefixLength ?? 32 },
    nameLength: { min: options.minimumNameLength ?? 1, max: options.maximumNameLength ?? 32 },
    requireName: options.requireName ?? false,
    enableMetadata: options.enableMetadata ?? false,
    expiration: {
      defaultExpiresIn: options.keyExpiration?.defaultExpiresIn ?? null,
      disableCustom: options.keyExpiration?.disableCustomExpiresTime ?? false,
      minDays: options.keyExpiration?.minExpiresIn ?? 1,
      maxDays: options.keyExpiration?.maxExpiresIn ?? 365,
    },
    rateLimit: { enabled: options.rateLimit?.enabled ?? true, timeWindow, maxRequests },
    start: { store: options.startingCharactersConfig?.shouldStore ?? true, length: options.startingCharactersConfig?.charactersLength ?? 6 },
    defaultPermissions: options.permissions?.defaultPermissions,
  }
}
