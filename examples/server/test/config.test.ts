import { describe, expect, it } from 'vitest'
import { ConfigError, DEVELOPMENT_SECRET, readConfig, SOCIAL_PROVIDER_IDS } from '../src/config.js'

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
      bearer: false,
      multiSession: false,
      rateLimit: true,
      trustProxy: 0,
      mailLog: undefined,
      smsLog: undefined,
      webhookLog: undefined,
      adminEmails: new Set(),
      socialProviders: {},
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
        BEARER: '1',
        MULTI_SESSION: '1',
        RATE_LIMIT: '0',
        TRUST_PROXY: '1',
        MAIL_LOG: 'logs/mail.jsonl',
        SMS_LOG: 'logs/sms.jsonl',
        WEBHOOK_LOG: '/var/log/hooks.jsonl',
        ADMIN_EMAILS: 'Ops@Example.com, root@example.com,',
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
      bearer: true,
      multiSession: true,
      rateLimit: false,
      trustProxy: 1,
      mailLog: '/srv/example/logs/mail.jsonl',
      smsLog: '/srv/example/logs/sms.jsonl',
      webhookLog: '/var/log/hooks.jsonl',
      adminEmails: new Set(['ops@example.com', 'root@example.com']),
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

describe('readConfig: social providers', () => {
  it('enables each named provider whose client id and secret are both set', () => {
    const env: Record<string, string> = {}
    for (const id of SOCIAL_PROVIDER_IDS) {
      if (id === 'apple') continue
      env[`${id.toUpperCase()}_CLIENT_ID`] = `${id}-id`
      env[`${id.toUpperCase()}_CLIENT_SECRET`] = `${id}-secret`
    }
    const { socialProviders } = readConfig({ ...env, MICROSOFT_TENANT_ID: 'organizations', GITLAB_ISSUER: 'https://git.example.com/' })
    expect(Object.keys(socialProviders).sort()).toEqual(SOCIAL_PROVIDER_IDS.filter((id) => id !== 'apple'))
    expect(socialProviders.github).toEqual({ clientId: 'github-id', clientSecret: 'github-secret' })
    expect(socialProviders.google).toEqual({ clientId: 'google-id', clientSecret: 'google-secret' })
    expect(socialProviders.microsoft).toEqual({ clientId: 'microsoft-id', clientSecret: 'microsoft-secret', tenantId: 'organizations' })
    expect(socialProviders.gitlab).toEqual({ clientId: 'gitlab-id', clientSecret: 'gitlab-secret', issuer: 'https://git.example.com' })
    expect(SOCIAL_PROVIDER_IDS).toHaveLength(19)
  })

  it('refuses half a credential, naming the missing variable', () => {
    expect(() => readConfig({ GITHUB_CLIENT_ID: 'x' })).toThrow('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together (GITHUB_CLIENT_SECRET is missing)')
    expect(() => readConfig({ DISCORD_CLIENT_SECRET: 'x' })).toThrow('DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET must be set together (DISCORD_CLIENT_ID is missing)')
    expect(() => readConfig({ GITLAB_CLIENT_ID: 'x', GITLAB_CLIENT_SECRET: 'y', GITLAB_ISSUER: 'git.example.com' })).toThrow(/GITLAB_ISSUER must be an/)
  })

  it('takes Apple with a ready-made secret or with the key to mint one', () => {
    expect(readConfig({ APPLE_CLIENT_ID: 'com.example.web', APPLE_CLIENT_SECRET: 'eyJ.jwt.sig' }).socialProviders.apple).toEqual({
      clientId: 'com.example.web',
      clientSecret: 'eyJ.jwt.sig',
    })
    const minted = readConfig({
      APPLE_CLIENT_ID: 'com.example.web',
      APPLE_TEAM_ID: 'TEAM123456',
      APPLE_KEY_ID: 'KEY9876543',
      APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nMIGT\\n-----END PRIVATE KEY-----',
      APPLE_APP_BUNDLE_IDENTIFIER: 'com.example.ios',
    }).socialProviders.apple
    expect(minted).toEqual({
      clientId: 'com.example.web',
      teamId: 'TEAM123456',
      keyId: 'KEY9876543',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIGT\n-----END PRIVATE KEY-----',
      appBundleIdentifier: 'com.example.ios',
    })
    expect(() => readConfig({ APPLE_CLIENT_ID: 'com.example.web', APPLE_TEAM_ID: 'TEAM123456' })).toThrow(
      'Apple needs APPLE_CLIENT_SECRET, or APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY to mint one',
    )
    expect(() => readConfig({ APPLE_CLIENT_SECRET: 'eyJ.jwt.sig' })).toThrow('APPLE_CLIENT_ID (the Services ID) is required')
  })

  it('adds the generic OpenID Connect provider `oidc` from SOCIAL_OIDC_*', () => {
    const { socialProviders } = readConfig({
      SOCIAL_OIDC_ISSUER: 'http://127.0.0.1:4000/',
      SOCIAL_OIDC_CLIENT_ID: 'gatehouse-example',
      SOCIAL_OIDC_CLIENT_SECRET: 'oidc-secret',
      SOCIAL_OIDC_NAME: 'Acme ID',
    })
    // The issuer is compared exactly with `iss`: a trailing slash is kept.
    expect(socialProviders).toEqual({
      oidc: { type: 'oidc', issuer: 'http://127.0.0.1:4000/', name: 'Acme ID', clientId: 'gatehouse-example', clientSecret: 'oidc-secret' },
    })
    expect(readConfig({ SOCIAL_OIDC_ISSUER: 'https://id.example.com', SOCIAL_OIDC_CLIENT_ID: 'public' }).socialProviders.oidc).toEqual({
      type: 'oidc',
      issuer: 'https://id.example.com',
      name: 'OpenID Connect',
      clientId: 'public',
    })
    expect(() => readConfig({ SOCIAL_OIDC_CLIENT_ID: 'x', SOCIAL_OIDC_CLIENT_SECRET: 'y' })).toThrow(
      'SOCIAL_OIDC_ISSUER and SOCIAL_OIDC_CLIENT_ID must be set together',
    )
    expect(() => readConfig({ SOCIAL_OIDC_ISSUER: 'id.example.com', SOCIAL_OIDC_CLIENT_ID: 'x' })).toThrow(/SOCIAL_OIDC_ISSUER must be an/)
  })
})
