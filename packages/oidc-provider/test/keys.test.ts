/**
 * Signing keys through the routes: GET /jwks publishes what signJwt signs
 * with, for each algorithm; keys are made on first use and stored with the
 * private half encrypted under the auth secret.
 */
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createSecrets } from '../../core/src/crypto/keys.js'
import { SECRET } from '../../core/test/helpers.js'
import { decryptPrivateKey } from '../../core/src/signing-keys/encryption.js'
import { signJwt } from '../src/keys/index.js'
import { fetchJwks, keysAuth, relyingPartyKeys, storedKeys } from './keys-fixtures.js'

const ISSUER = 'http://localhost:3000/api/auth'

describe('GET /jwks', () => {
  it('makes the RS256 key on the first request and serves its public half with kid, alg and use', async () => {
    const auth = keysAuth()
    expect(await storedKeys(auth)).toEqual([])
    const { response, body } = await fetchJwks(auth)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(body.keys).toHaveLength(1)
    const [key] = body.keys
    expect(key).toEqual({ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: expect.any(String), alg: 'RS256', use: 'sig' })
    expect(key?.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: key?.n, e: key?.e }, 'sha256'))
    // RSA moduli are at least 2048 bits.
    expect(base64url.decode(key?.n as string).length * 8).toBeGreaterThanOrEqual(2048)
    const rows = await storedKeys(auth)
    expect(rows.map((row) => [row.id, row.alg, row.supersedes])).toEqual([[key?.kid, 'RS256', 'genesis:RS256']])
    // A second request serves the same key.
    expect((await fetchJwks(auth)).body).toEqual(body)
  })

  it('publishes one key per configured algorithm, default first', async () => {
    const auth = keysAuth({ signing: { algorithm: 'ES256', additionalAlgorithms: ['EdDSA'] } })
    const { body } = await fetchJwks(auth)
    expect(body.keys.map((key) => [key.alg, key.kty, key.crv, key.use])).toEqual(
      expect.arrayContaining([
        ['ES256', 'EC', 'P-256', 'sig'],
        ['RS256', 'RSA', undefined, 'sig'],
        ['EdDSA', 'OKP', 'Ed25519', 'sig'],
      ]),
    )
    expect(body.keys).toHaveLength(3)
    for (const key of body.keys) expect(key).not.toHaveProperty('d')
  })
})

describe('signJwt', () => {
  it.each(['RS256', 'ES256', 'EdDSA'] as const)('signs %s tokens a relying party verifies against the published keys', async (alg) => {
    const auth = keysAuth({ signing: { algorithm: alg } })
    const ctx = await auth.ctx()
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    const token = await signJwt(ctx, auth.resolved, { sub: 'user-1', aud: 'client-1', exp: now + 3600 })
    const header = decodeProtectedHeader(token)
    expect(header).toEqual({ alg, kid: expect.any(String), typ: 'JWT' })
    const { payload } = await jwtVerify(token, await relyingPartyKeys(auth), {
      issuer: ISSUER,
      audience: 'client-1',
      algorithms: [alg],
      currentDate: auth.clock.now(),
    })
    expect(payload).toEqual({ iss: ISSUER, iat: now, sub: 'user-1', aud: 'client-1', exp: now + 3600 })
    const rows = await storedKeys(auth)
    expect(rows.find((row) => row.alg === alg)?.id).toBe(header.kid)
  })

  it('signs with the requested configured algorithm and refuses an unconfigured one', async () => {
    const auth = keysAuth({ signing: { additionalAlgorithms: ['EdDSA'] } })
    const ctx = await auth.ctx()
    const exp = Math.floor(auth.clock.now().getTime() / 1000) + 60
    expect(decodeProtectedHeader(await signJwt(ctx, auth.resolved, { exp })).alg).toBe('RS256')
    expect(decodeProtectedHeader(await signJwt(ctx, auth.resolved, { exp }, { alg: 'EdDSA' })).alg).toBe('EdDSA')
    await expect(signJwt(ctx, auth.resolved, { exp }, { alg: 'ES256' })).rejects.toThrow('ES256 is not a configured signing algorithm')
  })
})

describe('stored keys', () => {
  it('keep the private half encrypted: no plaintext d, opened only with the auth secret and the row kid', async () => {
    const auth = keysAuth({ signing: { additionalAlgorithms: ['ES256', 'EdDSA'] } })
    await fetchJwks(auth)
    const rows = await storedKeys(auth)
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      expect(row.privateKey).toMatch(/^v1\.[\w-]+\.[\w-]+$/)
      expect(JSON.parse(row.publicKey)).not.toHaveProperty('d')
      const opened = await decryptPrivateKey(createSecrets(SECRET), row.id, row.privateKey)
      if (!opened.ok) throw new Error(`row ${row.id} did not open`)
      const privateJwk = JSON.parse(opened.plaintext) as { d: string; kid: string }
      expect(privateJwk.kid).toBe(row.id)
      expect(privateJwk.d.length).toBeGreaterThan(20)
      expect(row.privateKey).not.toContain(privateJwk.d)
      expect(row.publicKey).not.toContain(privateJwk.d)
      expect(await decryptPrivateKey(createSecrets('another-secret-0123456789-abcdefghijkl'), row.id, row.privateKey)).toEqual({ ok: false })
      const other = rows.find((candidate) => candidate.id !== row.id)?.id as string
      expect(await decryptPrivateKey(createSecrets(SECRET), other, row.privateKey)).toEqual({ ok: false })
    }
  })

  it('private keys are never served, whatever the row holds', async () => {
    const auth = keysAuth()
    await fetchJwks(auth)
    const [row] = await storedKeys(auth)
    const adapter = await auth.adapter()
    const tampered = { ...JSON.parse(row?.publicKey as string), d: 'leaked' }
    await adapter.update({ model: 'jwks', where: { field: 'id', value: row?.id as string }, update: { publicKey: JSON.stringify(tampered) } })
    auth.clock.advance(61_000)
    const { body } = await fetchJwks(auth)
    expect(body.keys[0]).not.toHaveProperty('d')
    expect(body.keys[0]?.kid).toBe(row?.id)
  })
})
