import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../src/config.js'

describe('POLAR_* (the billing platform)', () => {
  it('leaves outbound billing off without POLAR_ACCESS_TOKEN, whatever else is set', () => {
    expect(readConfig({}).billingPlatform).toBeUndefined()
    expect(readConfig({ POLAR_PRODUCTS: 'pro=prod_1', POLAR_SERVER: 'sandbox' }).billingPlatform).toBeUndefined()
  })

  it('reads the token, the server, its URL, the product slugs and the success URL', () => {
    const { billingPlatform } = readConfig({
      POLAR_ACCESS_TOKEN: 'polar_oat_x',
      POLAR_SERVER: 'sandbox',
      POLAR_SERVER_URL: 'http://127.0.0.1:4010',
      POLAR_PRODUCTS: ' pro = prod_1 , team=prod_2,',
      POLAR_SUCCESS_URL: '/billing?checkout=done',
    })
    expect(billingPlatform).toEqual({
      accessToken: 'polar_oat_x',
      server: 'sandbox',
      serverURL: 'http://127.0.0.1:4010',
      products: [
        { slug: 'pro', productId: 'prod_1' },
        { slug: 'team', productId: 'prod_2' },
      ],
      successUrl: '/billing?checkout=done',
      usageEvents: [],
    })
    expect(readConfig({ POLAR_ACCESS_TOKEN: 't' }).billingPlatform).toMatchObject({ server: 'production', serverURL: undefined, products: [], usageEvents: [] })
  })

  it('reads POLAR_USAGE_EVENTS: names, each with an optional bound; refuses malformed and repeated entries', () => {
    expect(readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_USAGE_EVENTS: ' api_call : 100000 , export.pdf,' }).billingPlatform?.usageEvents).toEqual([
      { name: 'api_call', max: 100_000 },
      { name: 'export.pdf', max: undefined },
    ])
    for (const entry of ['api call', 'api_call:', 'api_call:-1', 'api_call:1.5', 'a:b:c', ':5']) {
      expect(() => readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_USAGE_EVENTS: entry }), entry).toThrow(/POLAR_USAGE_EVENTS: expected name or name:max/)
    }
    expect(() => readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_USAGE_EVENTS: 'a,a' })).toThrow(/listed twice/)
  })

  it('refuses an unknown server, a URL that is not http(s) and a malformed product entry', () => {
    expect(() => readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_SERVER: 'staging' })).toThrow(ConfigError)
    expect(() => readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_SERVER_URL: 'ftp://polar.example' })).toThrow(/POLAR_SERVER_URL/)
    for (const entry of ['pro', 'pro=', '=prod_1', 'pro=prod_1=x']) {
      expect(() => readConfig({ POLAR_ACCESS_TOKEN: 't', POLAR_PRODUCTS: entry }), entry).toThrow(/POLAR_PRODUCTS: expected slug=productId/)
    }
  })

  it('never puts the access token in a configuration error', () => {
    let message = ''
    try {
      readConfig({ POLAR_ACCESS_TOKEN: 'polar_oat_secret_value', POLAR_PRODUCTS: 'broken' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toMatch(/POLAR_PRODUCTS/)
    expect(message).not.toContain('polar_oat_secret_value')
  })
})
