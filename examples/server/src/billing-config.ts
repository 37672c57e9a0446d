/**
 * @module
 * The billing platform's outbound calls from the environment: POLAR_ACCESS_TOKEN
 * turns them on; POLAR_SERVER, POLAR_SERVER_URL, POLAR_PRODUCTS
 * (`slug=productId,…`) and POLAR_SUCCESS_URL tune them (docs/billing.md#outbound-calls).
 */
import { ConfigError, origin, value, type Env } from './config-env.js'

export interface BillingPlatformConfig {
  readonly accessToken: string
  readonly server: 'production' | 'sandbox'
  readonly serverURL: string | undefined
  readonly products: ReadonlyArray<{ readonly slug: string; readonly productId: string }>
  readonly successUrl: string | undefined
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
  return { accessToken, server, serverURL, products, successUrl: value(env, 'POLAR_SUCCESS_URL') }
}
