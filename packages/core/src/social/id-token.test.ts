import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyIdToken } from './id-token.js'
import { authorizationServer } from './protocol.js'
import type { ConfiguredProvider } from '../types/social.js'

const clock = { now: () => new Date() }
let keys: Awaited<ReturnType<typeof generateKeyPair>>
let origin = ''
const server = createServer()

beforeAll(async () => {
  keys = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  server.on('request', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** A provider whose issuer names the user's tenant, like Microsoft's `common` endpoints. */
function multiTenant(): ConfiguredProvider {
  return {
    id: 'tenanted',
    redirectURI: 'https://app.test/api/auth/callback/tenanted',
    config: { clientId: 'client-1' },
    definition: {
      id: 'tenanted',
      name: 'Tenanted',
      clientId: 'client-1',
      authorizationEndpoint: `${origin}/authorize`,
      tokenEndpoint: `${origin}/token`,
      issuer: `${origin}/{tenantid}/v2.0`,
      jwksUri: `${origin}/keys`,
      scopes: ['openid'],
      getUserInfo: async () => null,
    },
  }
}

function token(claims: Record<string, unknown>, issuer: string) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience('client-1')
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(keys.privateKey)
}

describe('multi-tenant issuers', () => {
  it('ID-token sign-in accepts the issuer of the token’s own tenant only', async () => {
    const provider = multiTenant()
    const good = await verifyIdToken(provider, await token({ tid: 'tenant-a' }, `${origin}/tenant-a/v2.0`), undefined, clock)
    expect(good).toMatchObject({ ok: true, claims: { sub: 'user-1', tid: 'tenant-a' } })
    expect(await verifyIdToken(provider, await token({ tid: 'tenant-a' }, `${origin}/tenant-b/v2.0`), undefined, clock)).toEqual({ ok: false, reason: 'invalid' })
    expect(await verifyIdToken(provider, await token({}, `${origin}/{tenantid}/v2.0`), undefined, clock)).toEqual({ ok: false, reason: 'invalid' })
  })

  it('the code-flow ID Token check fills the template with the token’s tid', async () => {
    const provider = multiTenant()
    const as = await authorizationServer(provider, clock)
    const answer = async (idToken: string) =>
      oauth.processAuthorizationCodeResponse(
        as,
        { client_id: 'client-1' },
        Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken }),
        { expectedNonce: 'n-1' },
      )
    const result = await answer(await token({ tid: 'tenant-a', nonce: 'n-1' }, `${origin}/tenant-a/v2.0`))
    expect(oauth.getValidatedIdTokenClaims(result)?.iss).toBe(`${origin}/tenant-a/v2.0`)
    await expect(answer(await token({ tid: 'tenant-a', nonce: 'n-1' }, `${origin}/tenant-b/v2.0`))).rejects.toThrow(/iss/)
    await expect(answer(await token({ nonce: 'n-1' }, `${origin}/{tenantid}/v2.0`))).rejects.toThrow(/iss/)
  })
})
