/**
 * @module
 * The checks create and update share (docs/api-key.md#routes):
 * name and prefix lengths, expiry bounds in days, refill pairs, metadata.
 */
import { AuthError } from '@gatehouse/core'
import { ApiKeyErrors } from '../errors.js'
import type { ResolvedApiKeyOptions } from '../options.js'

const DAY_SECONDS = 86_400

/** The fields only the server sets: a key's limits and permissions. A request naming one is refused, so no user lifts their own key's limits. */
const SERVER_ONLY = ['remaining', 'refillAmount', 'refillInterval', 'rateLimitTimeWindow', 'rateLimitMax', 'rateLimitEnabled', 'permissions'] as const

export function refuseServerOnly(fromClient: boolean, input: Partial<Record<(typeof SERVER_ONLY)[number], unknown>>): void {
  if (fromClient && SERVER_ONLY.some((field) => input[field] !== undefined && input[field] !== null)) throw new AuthError(ApiKeyErrors.SERVER_ONLY_PROPERTY)
}

export function checkName(options: ResolvedApiKeyOptions, name: string | undefined, creating: boolean): void {
  if (name === undefined) {
    if (creating && options.requireName) throw new AuthError(ApiKeyErrors.NAME_REQUIRED)
    return
  }
  if (name.length < options.nameLength.min || name.length > options.nameLength.max) throw new AuthError(ApiKeyErrors.INVALID_NAME_LENGTH)
}

export function checkPrefix(options: ResolvedApiKeyOptions, prefix: string | undefined): void {
  if (prefix === undefined) return
  if (prefix.length < options.prefixLength.min || prefix.length > options.prefixLength.max) throw new AuthError(ApiKeyErrors.INVALID_PREFIX_LENGTH)
}

/** The expiry for `expiresIn` seconds (null: never), within the configured days. */
export function expiryOf(options: ResolvedApiKeyOptions, expiresIn: number | null, now: Date): Date | null {
  if (expiresIn === null) return null
  if (options.expiration.disableCustom) throw new AuthError(ApiKeyErrors.KEY_DISABLED_EXPIRATION)
  const days = expiresIn / DAY_SECONDS
  if (days < options.expiration.minDays) throw new AuthError(ApiKeyErrors.EXPIRES_IN_IS_TOO_SMALL)
  if (days > options.expiration.maxDays) throw new AuthError(ApiKeyErrors.EXPIRES_IN_IS_TOO_LARGE)
  return new Date(now.getTime() + expiresIn * 1000)
}

export function checkRefill(refillAmount: number | undefined, refillInterval: number | undefined): void {
  if (refillAmount !== undefined && refillInterval === undefined) throw new AuthError(ApiKeyErrors.REFILL_AMOUNT_AND_INTERVAL_REQUIRED)
  if (refillInterval !== undefined && refillAmount === undefined) throw new AuthError(ApiKeyErrors.REFILL_INTERVAL_AND_AMOUNT_REQUIRED)
}

/** Metadata as stored: JSON text of an object, or undefined when none was given. */
export function metadataText(options: ResolvedApiKeyOptions, metadata: unknown): string | null | undefined {
  if (metadata === undefined) return undefined
  if (!options.enableMetadata) throw new AuthError(ApiKeyErrors.METADATA_DISABLED)
  if (metadata === null) return null
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw new AuthError(ApiKeyErrors.INVALID_METADATA_TYPE)
  return JSON.stringify(metadata)
}
