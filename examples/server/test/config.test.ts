import { describe, expect, it } from 'vitest'
import { ConfigError, DEVELOPMENT_SECRET, readConfig } from '../src/config.js'

describe('readConfig', () => {
  it('has a development default for everything', () => {
    const config = readConfig({}, '/srv/example')
    expect(config).toEqual({
      port: 3000,
      baseURL: 'http://127.0.0.1:3000',
      secret: DEVELOPMENT_SECRET,
      secretIsDevelopmentDefault: true,
      production: false,
      databasePath: '/srv/example/data/gatehouse.db',
      trustedOrigins: [],
      billingWebhookSecret: undefined,
      cookieCache: false,
      rateLimit: true,
      trustProxy: 0,
      mailLog: undefined,
      webhookLog: undefined,
    })
    expect(DEVELOPMENT_SECRET.length).toBeGreaterThanOrEqual(32)
  })

  it('reads every variable', () => {
    const config = readConfig(
      {
        PORT: '4100',
        BASE_URL: 'https://auth.example.com/',
        AUTH_SECRET: 'x'.repeat(40),
        DATABASE_PATH: 'tmp/one.db',
        TRUSTED_ORIGINS: 'http://localhost:5173, https://app.example.com ,',
        BILLING_WEBHOOK_SECRET: 'whsec_abc',
        COOKIE_CACHE: '1',
        RATE_LIMIT: '0',
        TRUST_PROXY: '1',
        MAIL_LOG: 'logs/mail.jsonl',
        WEBHOOK_LOG: '/var/log/hooks.jsonl',
      },
      '/srv/example',
    )
    expect(config).toMatchObject({
      port: 4100,
      baseURL: 'https://auth.example.com',
      secret: 'x'.repeat(40),
      secretIsDevelopmentDefault: false,
      databasePath: '/srv/example/tmp/one.db',
      trustedOrigins: ['http://localhost:5173', 'https://app.example.com'],
      billingWebhookSecret: 'whsec_abc',
      cookieCache: true,
      rateLimit: false,
      trustProxy: 1,
      mailLog: '/srv/example/logs/mail.jsonl',
      webhookLog: '/var/log/hooks.jsonl',
    })
  })

  it('derives BASE_URL from PORT', () => {
    expect(readConfig({ PORT: '4321' }).baseURL).toBe('http://127.0.0.1:4321')
  })

  it('refuses to run in production without AUTH_SECRET', () => {
    expect(() => readConfig({ NODE_ENV: 'production' })).toThrow(ConfigError)
    expect(() => readConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET is required/)
    expect(readConfig({ NODE_ENV: 'production', AUTH_SECRET: 'y'.repeat(32) }).production).toBe(true)
  })

  it('reads TRUST_PROXY as a count of proxies and refuses anything else', () => {
    expect(readConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0)
    expect(readConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2)
    expect(readConfig({ TRUST_PROXY: '' }).trustProxy).toBe(0)
    for (const raw of ['true', 'yes', 'loopback', '-1', '1.5', '1e1', '100', '127.0.0.1']) {
      expect(() => readConfig({ TRUST_PROXY: raw }), raw).toThrow(
        `TRUST_PROXY must be the number of reverse proxies in front of the server that append to X-Forwarded-For (0 for none, 1 for one), got "${raw}"`,
      )
    }
  })

  it('rejects a malformed PORT or BASE_URL', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow('PORT must be a port number, got "eighty"')
    expect(() => readConfig({ PORT: '70000' })).toThrow(ConfigError)
    expect(() => readConfig({ BASE_URL: 'localhost:3000' })).toThrow(/BASE_URL must be an/)
    expect(() => readConfig({ BASE_URL: 'ftp://example.com' })).toThrow(/BASE_URL must be an http\(s\) URL/)
  })
})
