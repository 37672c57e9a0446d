import { describe, expect, it } from 'vitest'
import { buildSocialProviders } from './registry.js'

const BASE = 'https://app.test/api/auth'

describe('buildSocialProviders', () => {
  it('builds named and generic providers with their redirect URIs', () => {
    const providers = buildSocialProviders(
      {
        github: { clientId: 'gh', clientSecret: 's' },
        corp: { type: 'oidc', issuer: 'https://id.corp.test', clientId: 'c' },
        local: { type: 'oauth2', clientId: 'l', authorizationEndpoint: 'http://127.0.0.1:9000/a', tokenEndpoint: 'http://localhost:9000/t', getUserInfo: async () => null },
        google: { clientId: 'g', redirectURI: 'https://app.test/custom/google' },
      },
      BASE,
    )
    expect([...providers.keys()]).toEqual(['github', 'corp', 'local', 'google'])
    expect(providers.get('github')?.redirectURI).toBe(`${BASE}/callback/github`)
    expect(providers.get('corp')?.definition).toMatchObject({ discovery: true, issuer: 'https://id.corp.test', scopes: ['openid', 'profile', 'email'] })
    expect(providers.get('google')?.redirectURI).toBe('https://app.test/custom/google')
  })

  it.each([
    ['an unknown id without a type', { nope: { clientId: 'x' } }, /not a built-in provider/],
    ['a missing client id', { github: { clientId: '' } }, /clientId is required/],
    ['an id that is not a path segment', { 'a/b': { type: 'oidc', issuer: 'https://id.test', clientId: 'x' } }, /provider id/],
    ['the credential id', { credential: { type: 'oidc', issuer: 'https://id.test', clientId: 'x' } }, /provider id/],
    ['plain http to another host', { corp: { type: 'oidc', issuer: 'http://id.corp.test', clientId: 'x' } }, /must use https/],
    ['a generic OAuth provider without a profile mapping', { acme: { type: 'oauth2', clientId: 'x', authorizationEndpoint: 'https://a.test/a', tokenEndpoint: 'https://a.test/t' } }, /getUserInfo/],
  ] as const)('refuses %s at start-up', (_name, config, message) => {
    expect(() => buildSocialProviders(config as never, BASE)).toThrow(message)
  })
})
