/**
 * Session JWTs in process (docs/jwt.md): GET /token and the set-auth-jwt
 * header, their claims and header, what they never go to (no session, an
 * API key's session), the organization claims, `definePayload`, the
 * server-only sign and verify, and one key store shared with the OIDC
 * provider behind one /jwks.
 */
import { oidcProvider } from '@gatehouse/oidc-provider'
import { organization } from '@gatehouse/organization'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { authed, browserAnswer } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { testKeyPlugin } from '../../core/test/test-key.js'
import { lifetimeSeconds } from '../src/options.js'
import { jwtAuth, signedIn, tokenOf, type JwtAuth } from './fixtures.js'

async function jwks(auth: JwtAuth) {
  const response = await auth.handler(request('/api/auth/jwks'))
  return { response, body: (await response.json()) as { keys: JWK[] } }
}

async function verifyLocally(auth: JwtAuth, token: string, audience = BASE) {
  return jwtVerify(token, createLocalJWKSet((await jwks(auth)).body), { issuer: BASE, audience, algorithms: ['EdDSA', 'ES256', 'RS256'] })
}

describe('GET /token', () => {
  it("answers a 15-minute EdDSA JWT of the session's user, verifiable with /jwks alone", async () => {
    const auth = jwtAuth()
    const ada = await signedIn(auth)
    const token = await tokenOf(auth, ada.cookie)
    const header = decodeProtectedHeader(token)
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'JWT' })
    const { payload } = await verifyLocally(auth, token)
    expect(payload).toMatchObject({ sub: ada.id, email: ada.email, email_verified: false, name: expect.stringContaining('ada'), iss: BASE, aud: BASE })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(900)
    expect(payload).not.toHaveProperty('org_id')
    const set = (await jwks(auth)).body
    expect(set.keys.find((key) => key.kid === header.kid)).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
    // Public halves only.
    expect(set.keys.every((key) => !('d' in key))).toBe(true)
  })

  it('answers 401 without a session', async () => {
    const auth = jwtAuth()
    expect((await auth.handler(request('/api/auth/token'))).status).toBe(401)
  })

  it('serves /jwks to any origin, cacheable for five minutes', async () => {
    const auth = jwtAuth()
    const { response } = await jwks(auth)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
  })

  it('signs with ES256 or RS256 by option, and honours issuer, audience and lifetime', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const auth = jwtAuth({ jwt: { jwks: { keyPairConfig: { alg } }, jwt: { audience: 'reports', expirationTime: '5m' } } })
      const ada = await signedIn(auth)
      const token = await tokenOf(auth, ada.cookie)
      expect(decodeProtectedHeader(token).alg).toBe(alg)
      const { payload } = await verifyLocally(auth, token, 'reports')
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300)
    }
    expect(lifetimeSeconds('1h')).toBe(3600)
    expect(() => lifetimeSeconds('2d')).toThrow(RangeError)
    expect(() => lifetimeSeconds('soon')).toThrow(RangeError)
  })

  it('adds what definePayload answers, and refuses to let it rewrite a registered claim', async () => {
    const auth = jwtAuth({ jwt: { jwt: { definePayload: (session) => ({ plan: 'pro', domain: session.user.email.split('@')[1] }) } } })
    const ada = await signedIn(auth)
    const { payload } = await verifyLocally(auth, await tokenOf(auth, ada.cookie))
    expect(payload).toMatchObject({ plan: 'pro', domain: 'example.com', sub: ada.id })

    const sneaky = jwtAuth({ jwt: { jwt: { definePayload: () => ({ sub: 'admin', exp: 9_999_999_999 }) } } })
    const bob = await signedIn(sneaky, 'bob')
    const answer = await browserAnswer(await sneaky.handler(authed('/api/auth/token', bob.cookie)))
    expect(answer.status).toBe(500)
    expect(answer.body.code).toBe('JWT_CLAIM_RESERVED')
  })
})

describe('set-auth-jwt on get-session', () => {
  it('carries a token whenever get-session found a session, exposed to scripts', async () => {
    const auth = jwtAuth()
    const ada = await signedIn(auth)
    const response = await auth.handler(authed('/api/auth/get-session', ada.cookie))
    const token = response.headers.get('set-auth-jwt')
    expect(token).toBeTruthy()
    expect(response.headers.get('access-control-expose-headers')).toContain('set-auth-jwt')
    expect((await verifyLocally(auth, token as string)).payload.sub).toBe(ada.id)
    const anonymous = await auth.handler(request('/api/auth/get-session'))
    expect(anonymous.headers.get('set-auth-jwt')).toBeNull()
  })

  it('is left out with disableSettingJwtHeader', async () => {
    const auth = jwtAuth({ jwt: { disableSettingJwtHeader: true } })
    const ada = await signedIn(auth)
    expect((await auth.handler(authed('/api/auth/get-session', ada.cookie))).headers.get('set-auth-jwt')).toBeNull()
  })

  it("is never minted for an API key's session, nor answered by /token to one", async () => {
    const auth = jwtAuth({ plugins: [testKeyPlugin()] })
    const ada = await signedIn(auth)
    const session = await auth.handler(request('/api/auth/get-session', { headers: { 'x-test-key': ada.id } }))
    expect((await session.json()).user.id).toBe(ada.id)
    expect(session.headers.get('set-auth-jwt')).toBeNull()
    const token = await auth.handler(request('/api/auth/token', { headers: { 'x-test-key': ada.id } }))
    expect(token.status).toBe(403)
  })
})

describe('organization claims', () => {
  it("carry the active organization and the member's role as the member row says now", async () => {
    const auth = jwtAuth({ plugins: [organization()] })
    const ada = await signedIn(auth)
    const created = await browserAnswer(await auth.handler(authed('/api/auth/organization/create', ada.cookie, { json: { name: 'Acme', slug: 'acme' } })))
    const cookie = created.cookie || ada.cookie
    const { payload } = await verifyLocally(auth, await tokenOf(auth, cookie))
    expect(payload).toMatchObject({ org_id: created.body.id, org_role: 'owner' })

    const { db } = await auth.$context
    await db.updateMany({ model: 'member', where: { field: 'userId', value: ada.id }, update: { role: 'admin' } })
    expect((await verifyLocally(auth, await tokenOf(auth, cookie))).payload.org_role).toBe('admin')
    await db.deleteMany({ model: 'member', where: { field: 'userId', value: ada.id } })
    expect((await verifyLocally(auth, await tokenOf(auth, cookie))).payload).not.toHaveProperty('org_id')
  })
})

describe('server-only sign and verify', () => {
  it('signs a payload and verifies it; a tampered token or another issuer is null; neither is routed', async () => {
    const auth = jwtAuth()
    const { token } = await auth.api.signJWT({ body: { payload: { sub: 'service-a', scope: 'reports' } } })
    expect((await auth.api.verifyJWT({ body: { token } })).payload).toMatchObject({ sub: 'service-a', scope: 'reports' })
    const [head, body, signature] = token.split('.') as [string, string, string]
    // The first character carries six whole bits of the signature; the last carries padding bits a
    // decoder may ignore, so changing it can leave the signature as it was.
    const tampered = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
    expect((await auth.api.verifyJWT({ body: { token: tampered } })).payload).toBeNull()
    expect((await auth.api.verifyJWT({ body: { token, issuer: 'https://elsewhere.example' } })).payload).toBeNull()
    expect((await auth.handler(request('/api/auth/sign-jwt', { json: { payload: {} }, headers: { origin: BASE } }))).status).toBe(404)
  })
})

describe('one key store with the OIDC provider', () => {
  it('publishes both plugins\' keys at the one /jwks, and each token verifies against it', async () => {
    const auth = jwtAuth({ plugins: [oidcProvider({ loginPage: '/login' })] })
    const ada = await signedIn(auth)
    const token = await tokenOf(auth, ada.cookie)
    const { body } = await jwks(auth)
    expect(body.keys.map((key) => key.alg).sort()).toEqual(['EdDSA', 'RS256'])
    expect((await verifyLocally(auth, token)).payload.sub).toBe(ada.id)
    const { db } = await auth.$context
    expect(await db.count({ model: 'jwks' })).toBe(2)
    const discovery = await (await auth.handler(request('/api/auth/.well-known/openid-configuration'))).json()
    expect(discovery.jwks_uri).toBe(`${BASE}/api/auth/jwks`)
  })
})
