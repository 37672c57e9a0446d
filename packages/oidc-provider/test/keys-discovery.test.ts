/**
 * GET /.well-known/openid-configuration through the handler: the exact
 * document, what it never advertises, and the issuer every ID Token carries.
 */
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { request } from '../../core/test/helpers.js'
import { signJwt } from '../src/keys/index.js'
import { keysAuth, type KeysAuth } from './keys-fixtures.js'

async function discovery(auth: KeysAuth, path = '/api/auth/.well-known/openid-configuration') {
  const response = await auth.handler(request(path))
  return { response, body: (await response.json()) as Record<string, unknown> }
}

const I = 'http://localhost:3000/api/auth'

describe('GET /.well-known/openid-configuration', () => {
  it('serves the exact document for the defaults', async () => {
    const { response, body } = await discovery(keysAuth())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(body).toEqual({
      issuer: I,
      authorization_endpoint: `${I}/oauth2/authorize`,
      token_endpoint: `${I}/oauth2/token`,
      userinfo_endpoint: `${I}/oauth2/userinfo`,
      registration_endpoint: `${I}/oauth2/register`,
      revocation_endpoint: `${I}/oauth2/revoke`,
      introspection_endpoint: `${I}/oauth2/introspect`,
      end_session_endpoint: `${I}/oauth2/end-session`,
      jwks_uri: `${I}/jwks`,
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'azp', 'amr', 'acr', 'email', 'email_verified', 'name', 'picture', 'given_name', 'family_name'],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      authorization_response_iss_parameter_supported: true,
    })
  })

  it('advertises plain only when enabled, the configured algorithms and scopes, never none', async () => {
    const { body } = await discovery(
      keysAuth({
        allowPlainCodeChallengeMethod: true,
        scopes: ['read:reports'],
        signing: { algorithm: 'ES256', additionalAlgorithms: ['EdDSA'] },
        metadata: { id_token_signing_alg_values_supported: ['none', 'HS256'], service_documentation: 'https://docs.example.com' },
      }),
    )
    expect(body.code_challenge_methods_supported).toEqual(['S256', 'plain'])
    expect(body.id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256', 'EdDSA'])
    expect(body.scopes_supported).toEqual(['openid', 'profile', 'email', 'offline_access', 'read:reports'])
    expect(body.service_documentation).toBe('https://docs.example.com')
  })

  it('never lets metadata move the issuer or an endpoint to another origin', async () => {
    const { body } = await discovery(
      keysAuth({ metadata: { issuer: 'https://evil.example', token_endpoint: 'https://evil.example/token', jwks_uri: `${I}/keys` } }),
    )
    expect(body.issuer).toBe(I)
    expect(body.token_endpoint).toBe(`${I}/oauth2/token`)
    expect(body.jwks_uri).toBe(`${I}/keys`)
  })

  it('follows the base path, and the issuer is the exact iss of every token', async () => {
    const auth = keysAuth({}, { baseURL: 'https://id.example.com/', basePath: '/auth/' })
    const response = await auth.handler(new Request('https://id.example.com/auth/.well-known/openid-configuration'))
    const body = (await response.json()) as Record<string, unknown>
    expect(body.issuer).toBe('https://id.example.com/auth')
    expect(body.jwks_uri).toBe('https://id.example.com/auth/jwks')
    const exp = Math.floor(auth.clock.now().getTime() / 1000) + 60
    expect(decodeJwt(await signJwt(await auth.ctx(), auth.resolved, { exp })).iss).toBe(body.issuer)
    const jwks = await auth.handler(new Request(String(body.jwks_uri)))
    expect(jwks.status).toBe(200)
  })
})
