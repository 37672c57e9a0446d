/**
 * OpenID Connect sign-in through two more providers: this repository's own
 * OpenID Provider (@gatehouse/oidc-provider on a second Gatehouse server,
 * over real HTTP on 127.0.0.1), and the tiny IdP of oidc-fixtures.ts whose
 * answers a test bends, for the attacks that need a dishonest or broken
 * IdP: an ID Token with another nonce, audience or issuer or signed by a key
 * the IdP does not publish, UserInfo about someone else, the IdP's own
 * error. Registration of an IdP on an untrusted loopback origin is refused.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { toNodeHandler } from '@gatehouse/core/node'
import { oidcProvider } from '@gatehouse/oidc-provider'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BASE, callbackURL, CLIENT, close, startFakeIdp } from './oidc-fixtures.js'
import { Browser, PASSWORD, rows, sessionOf, setUpProvider, signInSso, ssoAuth } from './oidc-setup.js'

describe("this repository's OpenID Provider (@gatehouse/oidc-provider)", () => {
  let server: Server
  let opOrigin: string
  let issuer: string
  let op: ReturnType<typeof gatehouseOp>

  function gatehouseOp(origin: string) {
    return createAuth({
      baseURL: origin,
      secret: 'gatehouse-op-secret-0123456789-abcdefghij',
      database: memoryAdapter(),
      logger: { disabled: true },
      emailAndPassword: { enabled: true },
      rateLimit: { enabled: false },
      plugins: [
        oidcProvider({
          loginPage: `${origin}/login`,
          consentPage: `${origin}/consent`,
          trustedClients: [
            { clientId: CLIENT.id, clientSecret: CLIENT.secret, name: 'Acme SSO', redirectURLs: [callbackURL('acme-gh')], type: 'web', skipConsent: true },
          ],
        }),
      ],
    })
  }

  beforeAll(async () => {
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    opOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    issuer = `${opOrigin}/api/auth`
    op = gatehouseOp(opOrigin)
    const handle = toNodeHandler(op)
    server.on('request', (req, res) => void handle(req, res))
  })
  afterAll(async () => {
    await close(server)
  })

  it('registers it by issuer (discovery), signs a person in and provisions them into the organization', async () => {
    const auth = ssoAuth([opOrigin])
    const { organizationId, register } = await setUpProvider(auth, { providerId: 'acme-gh', issuer, domain: 'acme.test' })
    expect(register.status).toBe(200)

    const browser = new Browser(auth)
    // The person signs in at the provider first (its session cookie stays in the jar for the provider's host).
    const signUp = await browser.request(`${issuer}/sign-up/email`, {
      json: { name: 'Ada Lovelace', email: 'ada@acme.test', password: PASSWORD },
      headers: { origin: opOrigin },
    })
    expect(signUp.status).toBe(200)
    const opUserId = ((await signUp.json()) as { user: { id: string } }).user.id

    // The provider says the address is not verified (email_verified false): anyone could have typed it there.
    const unverified = await browser.navigate(
      ((await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })).body.url as string),
    )
    expect(unverified.location).toBe(`${BASE}/sign-in-failed?error=email_not_verified`)
    expect((await rows(auth, 'user')).some((user) => user.email === 'ada@acme.test')).toBe(false)
    // Ada proves her mailbox at the provider (its own verification, done here in its store).
    const opStore = (await op.$context).db
    await opStore.update({ model: 'user', where: [{ field: 'id', value: opUserId }], update: { emailVerified: true } })

    const start = await signInSso(browser, { email: 'ada@acme.test', newUserCallbackURL: '/welcome' })
    expect(start.status).toBe(200)
    const authorize = new URL(start.body.url as string)
    expect(authorize.origin + authorize.pathname).toBe(`${issuer}/oauth2/authorize`)
    const end = await browser.navigate(start.body.url as string)
    expect(end.location).toBe(`${BASE}/welcome`)
    const callback = end.visited.find((visited) => visited.startsWith(`${callbackURL('acme-gh')}?`)) as string
    // The provider sends RFC 9207's iss, and advertises it.
    expect(new URL(callback).searchParams.get('iss')).toBe(issuer)

    const session = await sessionOf(browser)
    expect(session?.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace', emailVerified: true })
    const accounts = await rows(auth, 'account')
    expect(accounts.filter((account) => account.providerId === 'acme-gh').map((account) => account.accountId)).toEqual([opUserId])
    expect((await rows(auth, 'member')).find((member) => member.userId === session?.user.id)).toMatchObject({ organizationId, role: 'member' })
  })
})

describe('a dishonest or broken IdP', () => {
  let idp: Awaited<ReturnType<typeof startFakeIdp>>

  beforeAll(async () => {
    idp = await startFakeIdp()
  })
  afterAll(async () => {
    await idp.close()
  })
  beforeEach(() => {
    Object.assign(idp.behaviour, {
      advertiseIss: true,
      responseIss: 'issuer',
      error: null,
      user: { sub: 'user-1', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' },
      idTokenClaims: 'all',
      idTokenOverrides: {},
      signWithOtherKey: false,
      unsigned: false,
      documentIssuer: null,
      omitIdToken: false,
      userInfoSub: null,
    })
  })

  async function attempt(configure: () => void = () => undefined) {
    const auth = ssoAuth([idp.issuer])
    await setUpProvider(auth, { providerId: 'acme', issuer: idp.issuer, domain: 'acme.test' })
    configure()
    const browser = new Browser(auth)
    const start = await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })
    expect(start.status).toBe(200)
    const end = await browser.navigate(start.body.url as string)
    const signedIn = (await rows(auth, 'user')).some((user) => user.email === 'ada@acme.test')
    return { location: end.location, session: await sessionOf(browser), signedIn }
  }

  it('an honest answer signs in (the baseline the attacks below differ from)', async () => {
    expect(await attempt()).toMatchObject({ location: `${BASE}/dashboard`, signedIn: true })
  })

  it.each([
    ['a nonce of another sign-in', { nonce: 'nonce-of-another-sign-in' }],
    ['another audience', { aud: 'another-client' }],
    ['another issuer', { iss: 'https://other-idp.test' }],
    ['another authorized party', { azp: 'another-client' }],
  ])('refuses an ID Token with %s', async (_name, overrides) => {
    const result = await attempt(() => (idp.behaviour.idTokenOverrides = overrides))
    expect(result).toEqual({ location: `${BASE}/sign-in-failed?error=invalid_id_token`, session: null, signedIn: false })
  })

  it('refuses an ID Token signed by a key the IdP does not publish, and an unsigned one', async () => {
    for (const configure of [() => (idp.behaviour.signWithOtherKey = true), () => (idp.behaviour.unsigned = true)]) {
      const result = await attempt(configure)
      expect(result).toEqual({ location: `${BASE}/sign-in-failed?error=invalid_id_token`, session: null, signedIn: false })
      idp.behaviour.signWithOtherKey = false
      idp.behaviour.unsigned = false
    }
  })

  it('refuses UserInfo about another subject than the ID Token’s', async () => {
    const result = await attempt(() => Object.assign(idp.behaviour, { idTokenClaims: 'sub-only', userInfoSub: 'user-2' }))
    expect(result).toEqual({ location: `${BASE}/sign-in-failed?error=unable_to_get_user_info`, session: null, signedIn: false })
  })

  it('reads the profile from UserInfo when the ID Token carries only sub', async () => {
    expect(await attempt(() => (idp.behaviour.idTokenClaims = 'sub-only'))).toMatchObject({ location: `${BASE}/dashboard`, signedIn: true })
  })

  it("passes the IdP's error on, and takes a missing iss from an IdP that does not advertise it", async () => {
    expect(await attempt(() => (idp.behaviour.error = 'access_denied'))).toMatchObject({ location: `${BASE}/sign-in-failed?error=access_denied`, signedIn: false })
    idp.behaviour.error = null
    // Set before registration: its discovery document is what sign-in reads (cached 10 minutes).
    idp.behaviour.advertiseIss = false
    const tolerated = await attempt(() => (idp.behaviour.responseIss = 'absent'))
    expect(tolerated).toMatchObject({ location: `${BASE}/dashboard`, signedIn: true })
  })

  it('refuses a missing iss from an IdP that advertises it', async () => {
    const result = await attempt(() => (idp.behaviour.responseIss = 'absent'))
    expect(result).toEqual({ location: `${BASE}/sign-in-failed?error=issuer_mismatch`, session: null, signedIn: false })
  })
})

describe('registration', () => {
  it('refuses an IdP on a loopback origin that trustedOrigins does not name', async () => {
    const idp = await startFakeIdp()
    try {
      const auth = ssoAuth([])
      const { register } = await setUpProvider(auth, { providerId: 'acme', issuer: idp.issuer, domain: 'acme.test' })
      expect(register.status).toBe(400)
      expect(await rows(auth, 'ssoProvider')).toEqual([])
      expect(idp.requests).toEqual([])
    } finally {
      await idp.close()
    }
  })

  it('refuses an IdP whose discovery fails, saying why', async () => {
    const idp = await startFakeIdp()
    try {
      idp.behaviour.documentIssuer = 'https://someone-else.test'
      const auth = ssoAuth([idp.issuer])
      const { register } = await setUpProvider(auth, { providerId: 'acme', issuer: idp.issuer, domain: 'acme.test' })
      expect(register.status).toBe(400)
      expect(String(register.body.message)).toContain('names the issuer https://someone-else.test')
      expect(await rows(auth, 'ssoProvider')).toEqual([])
    } finally {
      await idp.close()
    }
  })
})
