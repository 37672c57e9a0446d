/**
 * Another service checking session JWTs over the network
 * (docs/jwt.md#verifying-in-another-service): the auth served on a loopback
 * port, and
 *
 * - a second Node process that imports jose alone and verifies with
 *   `createRemoteJWKSet`, across a key rotation: the old key's token and the
 *   new key's both verify, because the successor is published before it
 *   signs and the predecessor stays published until its last token expires;
 *   tampered, expired and wrongly addressed tokens are refused;
 * - `verifySessionJwt` (`@gatehouse/jwt/verify`), as the Express and Hono
 *   examples of docs/jwt.md use it, those examples run as written;
 * - a revoked session's token, which still verifies until it expires (the
 *   documented price of checking without a call back).
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import express from 'express'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authed } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { verifySessionJwt, type SessionJwtPayload } from '../src/verify.js'
import { jwtAuth, serve, signedIn, tokenOf, type JwtAuth } from './fixtures.js'

const run = promisify(execFile)
const CHILD = fileURLToPath(new URL('./fixtures/verify-child.mjs', import.meta.url))
const ROTATION = 3600

let auth: JwtAuth
let server: Awaited<ReturnType<typeof serve>>
let base = ''

beforeAll(async () => {
  // Issuer and audience are the auth's baseURL origin (http://localhost:3000); the key set is fetched from where it is served.
  auth = jwtAuth({ jwt: { jwks: { rotationInterval: ROTATION } } })
  server = await serve(auth)
  base = server.url
})

afterAll(async () => {
  await server?.close()
})

/** The tokens checked by a process that has nothing but jose and the JWKS URL. */
async function verifyInChild(tokens: Record<string, string>, audience: string): Promise<Record<string, { ok: boolean; sub?: string; error?: string }>> {
  const input = JSON.stringify({ jwksUrl: `${base}/api/auth/jwks`, issuer: 'http://localhost:3000', audience, tokens })
  const { stdout } = await run(process.execPath, [CHILD, input], { cwd: fileURLToPath(new URL('.', import.meta.url)) })
  return JSON.parse(stdout)
}

describe('a second process with jose only', () => {
  it('verifies tokens of the old and the new key across a rotation, and refuses tampered, expired and misaddressed ones', async () => {
    const ada = await signedIn(auth)
    const before = await tokenOf(auth, ada.cookie)
    // Into the last quarter of the key's period: the successor is made and published, not yet signing.
    auth.clock.advance((ROTATION - 600) * 1000)
    const published = (await (await auth.handler(request('/api/auth/jwks'))).json()) as { keys: Array<{ kid: string }> }
    expect(published.keys).toHaveLength(2)
    // Past the period: the successor signs, the old key stays published for the old tokens.
    auth.clock.advance(610 * 1000)
    const after = await tokenOf(auth, ada.cookie)
    const kid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid as string
    expect(kid(after)).not.toBe(kid(before))

    const [head, body] = after.split('.') as [string, string]
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: 'someone-else' })).toString('base64url')
    const realNow = Math.floor(Date.now() / 1000)
    const { token: expired } = await auth.api.signJWT({ body: { payload: { sub: ada.id, iat: realNow - 3600, exp: realNow - 60 } } })

    const results = await verifyInChild({ before, after, tampered: `${head}.${forged}.${after.split('.')[2]}`, expired }, 'http://localhost:3000')
    expect(results.before).toEqual({ ok: true, sub: ada.id })
    expect(results.after).toEqual({ ok: true, sub: ada.id })
    expect(results.tampered?.ok).toBe(false)
    expect(results.expired).toEqual({ ok: false, error: 'ERR_JWT_EXPIRED' })
    const elsewhere = await verifyInChild({ after }, 'https://another-service.example')
    expect(elsewhere.after).toEqual({ ok: false, error: 'ERR_JWT_CLAIM_VALIDATION_FAILED' })
  })
})

const options = () => ({ issuer: 'http://localhost:3000', audience: 'http://localhost:3000', jwksUrl: `${base}/api/auth/jwks` })

describe('verifySessionJwt', () => {
  it('answers the claims of a valid token and null for anything else', async () => {
    const ada = await signedIn(auth, 'vera')
    const token = await tokenOf(auth, ada.cookie)
    expect(await verifySessionJwt(token, options())).toMatchObject({ sub: ada.id, email: ada.email })
    expect(await verifySessionJwt(`${token}x`, options())).toBeNull()
    expect(await verifySessionJwt('not a jwt', options())).toBeNull()
    expect(await verifySessionJwt(token, { ...options(), audience: 'other' })).toBeNull()
    expect(await verifySessionJwt(token, { ...options(), issuer: 'https://evil.example' })).toBeNull()
  })

  it('throws when the key set cannot be fetched: a 503 for the service, not a 401', async () => {
    const ada = await signedIn(auth, 'down')
    const token = await tokenOf(auth, ada.cookie)
    await expect(verifySessionJwt(token, { ...options(), jwksUrl: 'http://127.0.0.1:9/jwks' })).rejects.toThrow()
  })

  it('still verifies a revoked session\'s token until it expires (docs/jwt.md#revocation)', async () => {
    const ada = await signedIn(auth, 'revoked')
    const token = await tokenOf(auth, ada.cookie)
    const out = await auth.handler(authed('/api/auth/sign-out', ada.cookie, { method: 'POST' }))
    expect(out.status).toBe(200)
    expect((await auth.handler(authed('/api/auth/token', ada.cookie))).status).toBe(401)
    expect(await verifySessionJwt(token, options())).toMatchObject({ sub: ada.id })
  })
})

describe('the examples of docs/jwt.md', () => {
  it('Express: a separate service answers 401 without a valid token and the user id with one', async () => {
    // docs/jwt.md#express
    const app = express()
    app.use(async (req, res, next) => {
      const token = req.headers.authorization?.replace(/^Bearer /i, '')
      const claims = token ? await verifySessionJwt(token, options()) : null
      if (!claims) return void res.status(401).json({ error: 'unauthorized' })
      res.locals.user = claims
      next()
    })
    app.get('/reports', (_req, res) => {
      res.json({ userId: (res.locals.user as SessionJwtPayload).sub })
    })
    const listener = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => listener.once('listening', resolve))
    const port = (listener.address() as { port: number }).port
    try {
      const ada = await signedIn(auth, 'express')
      const token = await tokenOf(auth, ada.cookie)
      const ok = await fetch(`http://127.0.0.1:${port}/reports`, { headers: { authorization: `Bearer ${token}` } })
      expect(await ok.json()).toEqual({ userId: ada.id })
      expect((await fetch(`http://127.0.0.1:${port}/reports`)).status).toBe(401)
      expect((await fetch(`http://127.0.0.1:${port}/reports`, { headers: { authorization: 'Bearer nonsense' } })).status).toBe(401)
    } finally {
      await new Promise((resolve) => listener.close(resolve))
    }
  })

  it('Hono: the same service as a middleware', async () => {
    // docs/jwt.md#hono
    const app = new Hono<{ Variables: { user: SessionJwtPayload } }>()
    app.use('*', async (c, next) => {
      const token = c.req.header('authorization')?.replace(/^Bearer /i, '')
      const claims = token ? await verifySessionJwt(token, options()) : null
      if (!claims) return c.json({ error: 'unauthorized' }, 401)
      c.set('user', claims)
      await next()
    })
    app.get('/reports', (c) => c.json({ userId: c.get('user').sub }))
    const ada = await signedIn(auth, 'hono')
    const token = await tokenOf(auth, ada.cookie)
    const ok = await app.request('/reports', { headers: { authorization: `Bearer ${token}` } })
    expect(await ok.json()).toEqual({ userId: ada.id })
    expect((await app.request('/reports')).status).toBe(401)
  })
})
