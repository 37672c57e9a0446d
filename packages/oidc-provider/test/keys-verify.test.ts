/**
 * verifyJwt: accepts only tokens our published keys signed for our issuer,
 * with a live `exp` (an expired one only when asked, for id_token_hint).
 */
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { signJwt, verifyJwt } from '../src/keys/index.js'
import { fetchJwks, keysAuth } from './keys-fixtures.js'

const ISSUER = 'http://localhost:3000/api/auth'

async function setup() {
  const auth = keysAuth({ signing: { additionalAlgorithms: ['EdDSA'] } })
  const ctx = await auth.ctx()
  const now = Math.floor(auth.clock.now().getTime() / 1000)
  return { auth, ctx, now }
}

describe('verifyJwt', () => {
  it('accepts our token for its audience and answers its claims', async () => {
    const { auth, ctx, now } = await setup()
    for (const alg of ['RS256', 'EdDSA'] as const) {
      const token = await signJwt(ctx, auth.resolved, { sub: 'u1', aud: 'client-1', exp: now + 60, nonce: 'n-1' }, { alg })
      expect(await verifyJwt(ctx, auth.resolved, token, { audience: 'client-1' })).toEqual({
        iss: ISSUER,
        iat: now,
        sub: 'u1',
        aud: 'client-1',
        exp: now + 60,
        nonce: 'n-1',
      })
      expect(await verifyJwt(ctx, auth.resolved, token)).toMatchObject({ sub: 'u1' })
    }
  })

  it('refuses another issuer, another audience, and a token without exp', async () => {
    const { auth, ctx, now } = await setup()
    const foreignIssuer = await signJwt(ctx, auth.resolved, { iss: 'https://other.example', aud: 'client-1', exp: now + 60 })
    expect(await verifyJwt(ctx, auth.resolved, foreignIssuer)).toBeNull()
    const ours = await signJwt(ctx, auth.resolved, { aud: 'client-1', exp: now + 60 })
    expect(await verifyJwt(ctx, auth.resolved, ours, { audience: 'client-2' })).toBeNull()
    const noExpiry = await signJwt(ctx, auth.resolved, { aud: 'client-1' })
    expect(await verifyJwt(ctx, auth.resolved, noExpiry)).toBeNull()
  })

  it('refuses a foreign key (even naming our kid), alg none, altered signatures and garbage', async () => {
    const { auth, ctx, now } = await setup()
    const { body } = await fetchJwks(auth)
    const ourKid = body.keys.find((key) => key.alg === 'RS256')?.kid as string
    const foreign = await generateKeyPair('RS256')
    const forged = await new SignJWT({ iss: ISSUER, aud: 'client-1', exp: now + 60 })
      .setProtectedHeader({ alg: 'RS256', kid: ourKid, typ: 'JWT' })
      .sign(foreign.privateKey)
    expect(await verifyJwt(ctx, auth.resolved, forged)).toBeNull()
    const unsecured = new UnsecuredJWT({ iss: ISSUER, aud: 'client-1', exp: now + 60 }).encode()
    expect(await verifyJwt(ctx, auth.resolved, unsecured)).toBeNull()
    const ours = await signJwt(ctx, auth.resolved, { aud: 'client-1', exp: now + 60 })
    const [header, payload, signature] = ours.split('.') as [string, string, string]
    const altered = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    expect(await verifyJwt(ctx, auth.resolved, altered)).toBeNull()
    const swapped = `${header}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: 'client-1', exp: now + 99 })).toString('base64url')}.${signature}`
    expect(await verifyJwt(ctx, auth.resolved, swapped)).toBeNull()
    expect(await verifyJwt(ctx, auth.resolved, 'not.a.jwt')).toBeNull()
    expect(await verifyJwt(ctx, auth.resolved, '')).toBeNull()
  })

  it('accepts an expired token only with allowExpired, still checking signature, issuer and audience', async () => {
    const { auth, ctx, now } = await setup()
    const token = await signJwt(ctx, auth.resolved, { sub: 'u1', aud: 'client-1', exp: now + 60 })
    auth.clock.advance(120_000)
    expect(await verifyJwt(ctx, auth.resolved, token)).toBeNull()
    expect(await verifyJwt(ctx, auth.resolved, token, { allowExpired: true, audience: 'client-1' })).toMatchObject({ sub: 'u1' })
    expect(await verifyJwt(ctx, auth.resolved, token, { allowExpired: true, audience: 'client-2' })).toBeNull()
    const foreignIssuer = await signJwt(ctx, auth.resolved, { iss: 'https://other.example', exp: now + 60 })
    expect(await verifyJwt(ctx, auth.resolved, foreignIssuer, { allowExpired: true })).toBeNull()
    const foreign = await generateKeyPair('RS256')
    const forged = await new SignJWT({ iss: ISSUER, exp: now }).setProtectedHeader({ alg: 'RS256' }).sign(foreign.privateKey)
    expect(await verifyJwt(ctx, auth.resolved, forged, { allowExpired: true })).toBeNull()
  })
})
