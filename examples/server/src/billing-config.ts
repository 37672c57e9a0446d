/**
 * @module
 * The billing platform's outbound calls from the environment: POLAR_ACCESS_TOKEN
 * turns them on; POLAR_SERVER, POLAR_SERVER_URL, POLAR_PRODUCTS
 * (`slug=productId,…`) and POLAR_SUCCESS_URL tune them (docs/billing.md#outbound-calls).
 * POLAR_USAGE_EVENTS (`name` or `name:max`, comma-separated) lists the usage
 * events signed-in users may report through POST /usage/ingest; without it
 * that route does not exist (docs/billing.md#security).
 */
import type { UsageEventRule } from '@gatehouse/billing'
import { ConfigError, origin, value, type Env } from './config-env.js'

export interface BillingPlatformConfig {
  readonly accessToken: string
  readonly server: 'production' | 'sandbox'
  readonly serverURL: string | undefined
  readonly products: ReadonlyArray<{ readonly slug: string; readonly productId: string }>
  readonly successUrl: string | undefined
  /** Events a signed-in user may report, each with the largest number its metadata may carry (none: the plugin's default). */
  readonly usageEvents: ReadonlyArray<{ readonly name: string; readonly max: number | undefined }>
}

/** `api_call`, `api_call:100000`: a name of letters, digits, `_`, `-` and `.`, and an optional whole-number bound. */
function usageEvents(env: Env): BillingPlatformConfig['usageEvents'] {
  const names = new Set<string>()
  return (value(env, 'POLAR_USAGE_EVENTS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^([\w.-]{1,100})\s*(?::\s*(\d{1,15}))?$/.exec(entry)
      if (!match) throw new ConfigError(`POLAR_USAGE_EVENTS: expected name or name:max, got ${JSON.stringify(entry)}`)
      const [, name = '', max] = match
      if (names.has(name)) throw new ConfigError(`POLAR_USAGE_EVENTS: ${JSON.stringify(name)} is listed twice`)
      names.add(name)
      return { name, max: max === undefined ? undefined : Number(max) }
    })
}

export function billingPlatform(env: Env): BillingPlatformConfig | undefined {
  const accessToken = value(env, 'POLAR_ACCESS_TOKEN')
  if (accessToken === undefined) return undefined
  const server = value(env, 'POLAR_SERVER') ?? 'production'
  if (server !== 'production' && server !== 'sandbox') throw new ConfigError('POLAR_SERVER must be production or sandbox')
  const serverURL = value(env, 'POLAR_SERVER_URL')
  if (serverURL !== undefined) origin('POLAR_SERVER_URL', serverURL)
  const products = (value(env, 'POLAR_PRODUCTS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [slug, productId, extra] = entry.split('=').map((part) => part.trim())
      if (!slug || !productId || extra !== undefined) throw new ConfigError(`POLAR_PRODUCTS: expected slug=productId, got ${JSON.stringify(entry)}`)
      return { slug, productId }
    })
  return { accessToken, server, serverURL, products, successUrl: value(env, 'POLAR_SUCCESS_URL'), usageEvents: usageEvents(env) }
}

/**
 * The plugin's usage catalogue for POLAR_USAGE_EVENTS. An environment
 * variable cannot carry a schema, so each event takes any metadata the
 * plugin's own checks allow: at most 50 keys, text, booleans, and numbers
 * finite, not negative and at most the event's `max`. An application with
 * real meters states each event's keys with a schema (docs/billing.md#usage-events).
 */
export function usageCatalogue(events: BillingPlatformConfig['usageEvents']): Record<string, UsageEventRule> {
  return Object.fromEntries(events.map(({ name, max }) => [name, { validate: () => true, ...(max === undefined ? {} : { max }) }]))
}
