import type { AuthContext } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { resolveOidcOptions, type OidcProviderOptions } from '../options.js'
import { discoveryDocument } from './discovery.js'

// Only `baseURL` is read: a partial context keeps the unit test free of a database.
const ctx = { auth: { baseURL: 'https://id.example.com/api/auth' } as AuthContext }

function document(options: Partial<OidcProviderOptions> = {}) {
  return discoveryDocument(ctx, resolveOidcOptions({ loginPage: '/login', ...options }))
}

describe('discoveryDocument', () => {
  it('keeps issuer and same-origin endpoint overrides in check', () => {
    const doc = document({
      metadata: {
        issuer: 'https://evil.example',
        token_endpoint: 'https://evil.example/token',
        userinfo_endpoint: 'https://id.example.com/proxy/userinfo',
        jwks_uri: 'http://id.example.com/jwks',
        authorization_endpoint: 'not a url',
        code_challenge_methods_supported: ['plain'],
        id_token_signing_alg_values_supported: ['none'],
        service_documentation: 'https://docs.example.com',
        claims_supported: ['sub', 'tenant'],
      },
    })
    expect(doc.issuer).toBe('https://id.example.com/api/auth')
    expect(doc.token_endpoint).toBe('https://id.example.com/api/auth/oauth2/token')
    expect(doc.userinfo_endpoint).toBe('https://id.example.com/proxy/userinfo')
    // Another scheme is another origin.
    expect(doc.jwks_uri).toBe('https://id.example.com/api/auth/jwks')
    expect(doc.authorization_endpoint).toBe('https://id.example.com/api/auth/oauth2/authorize')
    expect(doc.code_challenge_methods_supported).toEqual(['S256'])
    expect(doc.id_token_signing_alg_values_supported).toEqual(['RS256'])
    expect(doc.service_documentation).toBe('https://docs.example.com')
    expect(doc.claims_supported).toEqual(['sub', 'tenant'])
  })

  it('lists the default algorithm first, RS256 always, and extra scopes', () => {
    const doc = document({ signing: { algorithm: 'EdDSA', additionalAlgorithms: ['ES256', 'EdDSA'] }, scopes: ['read:reports'] })
    expect(doc.id_token_signing_alg_values_supported).toEqual(['EdDSA', 'RS256', 'ES256'])
    expect(doc.scopes_supported).toEqual(['openid', 'profile', 'email', 'offline_access', 'read:reports'])
  })
})
