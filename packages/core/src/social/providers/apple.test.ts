import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify, decodeProtectedHeader } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_BASE, NONCE, NOW, STATE, authorizeURL, clientSecret, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

/** The ID Token claims Apple sends on a web sign-in with a private relay address (booleans as strings). */
const CLAIMS = {
  iss: 'https://appleid.apple.com',
  aud: 'com.example.web',
  exp: 1772370000,
  iat: 1772366400,
  sub: '001234.5f0c2e1b9d6a4a7c8e3f2b1a0d9c8b7a.1234',
  nonce: NONCE,
  c_hash: 'qo9hVvYSyDSUrhhH_gYjWQ',
  email: 'x8k2m4p6q9@privaterelay.appleid.com',
  email_verified: 'true',
  is_private_email: 'true',
  auth_time: 1772366400,
  nonce_supported: true,
}

describe('apple', () => {
  it('asks for name and email with a form post, a nonce and no PKCE', async () => {
    const url = await authorizeURL(configure('apple', { clientId: 'com.example.web', clientSecret: 'ready-made-jwt' }))
    expect(url.origin + url.pathname).toBe('https://appleid.apple.com/auth/authorize')
    expect(query(url)).toEqual({
      response_type: 'code',
      client_id: 'com.example.web',
      redirect_uri: `${AUTH_BASE}/callback/apple`,
      scope: 'openid name email',
      state: STATE,
      nonce: NONCE,
      response_mode: 'form_post',
    })
  })

  it('mints an ES256 client-secret JWT from the team key, per request', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const provider = configure('apple', {
      clientId: 'com.example.web',
      teamId: 'TEAM123456',
      keyId: 'KEY9876543',
      privateKey: await exportPKCS8(privateKey),
    })
    const secret = await clientSecret(provider)
    expect(decodeProtectedHeader(secret ?? '')).toEqual({ alg: 'ES256', kid: 'KEY9876543' })
    const { payload } = await jwtVerify(secret ?? '', await importSPKI(await exportSPKI(publicKey), 'ES256'), {
      issuer: 'TEAM123456',
      subject: 'com.example.web',
      audience: 'https://appleid.apple.com',
      currentDate: NOW,
    })
    const issuedAt = NOW.getTime() / 1000
    expect(payload).toEqual({ iss: 'TEAM123456', sub: 'com.example.web', aud: 'https://appleid.apple.com', iat: issuedAt, exp: issuedAt + 300 })
    expect(provider.definition.clientSecretValue).toBeUndefined()
  })

  it('refuses a config with neither a client secret nor the key to mint one', () => {
    expect(() => configure('apple', { clientId: 'com.example.web', teamId: 'TEAM123456', keyId: 'KEY9876543' })).toThrow(
      'Gatehouse: socialProviders.apple needs `clientSecret`, or `teamId`, `keyId` and `privateKey` to mint one.',
    )
  })

  it('accepts ID Tokens of the iOS app by its bundle id', () => {
    const provider = configure('apple', { clientId: 'com.example.web', clientSecret: 'jwt', appBundleIdentifier: 'com.example.ios' })
    expect(provider.definition.idTokenAudiences).toEqual(['com.example.web', 'com.example.ios'])
    expect(provider.definition.jwksUri).toBe('https://appleid.apple.com/auth/keys')
  })

  it('reads the ID Token, and the name from the first form post only', async () => {
    const log = stubProvider({})
    const provider = configure('apple', { clientId: 'com.example.web', clientSecret: 'jwt' })
    const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: CLAIMS.email })
    const first = await userInfo(provider, { idTokenClaims: CLAIMS, callbackParams: new URLSearchParams({ code: 'c', state: STATE, user }) })
    expect(first).toEqual({
      id: CLAIMS.sub,
      email: CLAIMS.email,
      emailVerified: true,
      name: 'Ada Lovelace',
      image: null,
      data: { ...CLAIMS, email_verified: true, is_private_email: true, name: 'Ada Lovelace' },
    })
    const later = await userInfo(provider, { idTokenClaims: CLAIMS, callbackParams: new URLSearchParams({ code: 'c', state: STATE }) })
    expect(later).toMatchObject({ id: CLAIMS.sub, name: '', emailVerified: true })
    // A malformed `user` field is ignored, not fatal: it is unsigned display data.
    const garbled = await userInfo(provider, { idTokenClaims: CLAIMS, callbackParams: new URLSearchParams({ user: '{"name":' }) })
    expect(garbled?.name).toBe('')
    expect(log).toEqual([])
  })

  it('marks an address Apple has not verified as unverified', async () => {
    const provider = configure('apple', { clientId: 'com.example.web', clientSecret: 'jwt' })
    for (const flag of [false, 'false', undefined]) {
      const info = await userInfo(provider, { idTokenClaims: { ...CLAIMS, email_verified: flag, is_private_email: false } })
      expect(info).toMatchObject({ emailVerified: false, data: { is_private_email: false } })
    }
  })

  it('yields no profile without an ID Token', async () => {
    expect(await userInfo(configure('apple', { clientId: 'com.example.web', clientSecret: 'jwt' }))).toBeNull()
  })
})
