import { createLogger } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { createSecrets } from '../../../core/src/crypto/keys.js'
import type { ProviderRow } from '../schema.js'
import { openSecret, readProvider, sealConfig, sealSecret } from './provider-secrets.js'

const secrets = createSecrets('provider-secrets-test-0123456789-abcdefgh')

describe('sealSecret and openSecret', () => {
  it('round-trips, with a fresh IV each time', async () => {
    const one = await sealSecret(secrets, 'acme', 'clientSecret', 's3cret')
    const two = await sealSecret(secrets, 'acme', 'clientSecret', 's3cret')
    expect(one).not.toBe(two)
    expect(one).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/)
    expect(await openSecret(secrets, 'acme', 'clientSecret', one)).toBe('s3cret')
  })

  it('opens nothing bound to another provider or field, tampered, or sealed under another secret', async () => {
    const sealed = await sealSecret(secrets, 'acme', 'clientSecret', 's3cret')
    expect(await openSecret(secrets, 'other', 'clientSecret', sealed)).toBeNull()
    expect(await openSecret(secrets, 'acme', 'privateKey', sealed)).toBeNull()
    const [version, iv, body] = sealed.split('.') as [string, string, string]
    const flipped = `${body.slice(0, -2)}${body.endsWith('AA') ? 'AB' : 'AA'}`
    expect(await openSecret(secrets, 'acme', 'clientSecret', `${version}.${iv}.${flipped}`)).toBeNull()
    for (const broken of ['s3cret', 'v2.x.y', `${sealed}.extra`, 'v1.!!!.???', 42, null]) {
      expect(await openSecret(secrets, 'acme', 'clientSecret', broken)).toBeNull()
    }
    expect(await openSecret(createSecrets('another-secret-0123456789-abcdefghijkl'), 'acme', 'clientSecret', sealed)).toBeNull()
  })
})

describe('sealConfig and readProvider', () => {
  it('seals exactly the secret fields and readProvider gives the configuration back', async () => {
    const oidc = { issuer: 'https://idp.test', clientId: 'client', clientSecret: 'client-secret', discoveryEndpoint: 'https://idp.test/.well-known/openid-configuration' }
    const text = await sealConfig(secrets, 'acme', oidc)
    expect(text).not.toContain('client-secret')
    expect(JSON.parse(text)).toMatchObject({ clientId: 'client', issuer: 'https://idp.test' })
    const row: ProviderRow = {
      id: 'row-1',
      providerId: 'acme',
      issuer: 'https://idp.test',
      domain: 'acme.test',
      domainVerified: true,
      verifiedDomain: 'acme.test',
      oidcConfig: text,
      samlConfig: null,
      twoFactor: 'something-else',
      userId: null,
      organizationId: 'org-1',
      createdAt: new Date(),
      updatedAt: new Date(),
    }
    const provider = await readProvider({ secrets, logger: createLogger({ disabled: true }) }, row)
    expect(provider).toMatchObject({ providerId: 'acme', domainVerified: true, saml: null, twoFactor: 'skip', oidc })
    await expect(readProvider({ secrets, logger: createLogger({ disabled: true }) }, { ...row, oidcConfig: '{broken' })).rejects.toMatchObject({
      code: 'PROVIDER_SECRET_UNREADABLE',
    })
  })
})
