/**
 * OpenID Connect sign-in end to end against node-oidc-provider (panva's
 * certified OP, written apart from this code), on 127.0.0.1 and named in
 * `trustedOrigins`: an admin registers it and verifies the domain (TXT
 * resolver injected), people sign in by email, the browser follows the
 * IdP's redirects, and the callback leaves a session, a user, an account
 * and a membership. Then the attacks on the flow: state from another
 * browser, state replay, a mixed-up `iss`, a provider changed mid-flow, an
 * IdP vouching for an address of another domain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, BASE, callbackURL, CLIENT, startNodeOidcProvider } from './oidc-fixtures.js'
import { IDP_ENTITY_ID, IDP_SSO_URL, identity } from './saml-idp.js'
import { Browser, post, rows, sessionOf, setUpProvider, signInSso, ssoAuth, type SsoAuth } from './oidc-setup.js'

let op: Awaited<ReturnType<typeof startNodeOidcProvider>>

beforeAll(async () => {
  op = await startNodeOidcProvider(['acme', 'other'])
  op.accounts.set('ada', { email: 'Ada@Acme.test', email_verified: true, name: 'Ada Lovelace', groups: ['engineering'] })
  op.accounts.set('grace', { email: 'grace@acme.test', email_verified: false, name: 'Grace Hopper' })
  op.accounts.set('mallory', { email: 'mallory@evil.test', email_verified: true, name: 'Mallory' })
})
afterAll(async () => {
  await op.close()
})

async function acmeAuth() {
  const auth = ssoAuth([op.issuer])
  const setUp = await setUpProvider(auth, { providerId: 'acme', issuer: op.issuer, domain: 'acme.test' })
  expect(setUp.register.status).toBe(200)
  return { auth, ...setUp }
}

/** Follows the IdP's redirects up to (not into) our callback; the attacker's half of a login CSRF. */
async function codeCallback(browser: Browser, url: string): Promise<string> {
  let current = url
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser.request(current)
    const location = new URL(response.headers.get('location') as string, current).toString()
    if (location.startsWith(`${AUTH}/sso/callback/`)) return location
    current = location
  }
  throw new Error('the IdP never redirected to the callback')
}

async function signIn(auth: SsoAuth, browser: Browser, login: string, body: Record<string, unknown> = {}) {
  op.login = login
  const start = await signInSso(browser, { email: `${login}@acme.test`, ...body })
  expect(start.status).toBe(200)
  return browser.navigate(start.body.url as string)
}

describe('signing in through node-oidc-provider', () => {
  it('registers, verifies the domain, signs a new person in by email: session, user, account, membership', async () => {
    const { auth, organizationId, register } = await acmeAuth()
    expect(register.body).toMatchObject({ providerId: 'acme', redirectURI: callbackURL('acme') })
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', newUserCallbackURL: '/welcome' })
    expect(start).toMatchObject({ status: 200, body: { redirect: true } })
    const url = new URL(start.body.url as string)
    expect(url.origin).toBe(op.issuer)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: callbackURL('acme'),
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      login_hint: 'ada@acme.test',
    })
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const states = (await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('sso-state:'))
    expect(states.map((row) => row.identifier)).toEqual([expect.stringMatching(/^sso-state:[A-Za-z0-9_-]{43}$/)])
    // Stored hashed: the table holds nothing a browser could present.
    expect(JSON.stringify(states)).not.toContain(url.searchParams.get('state'))
    expect(start.body.url).toBeTypeOf('string')

    const end = await browser.navigate(start.body.url as string)
    expect(end.visited.some((visited) => visited.startsWith(`${callbackURL('acme')}?`))).toBe(true)
    expect(end.location).toBe(`${BASE}/welcome`)
    const session = await sessionOf(browser)
    expect(session?.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace', emailVerified: true })
    const accounts = await rows(auth, 'account')
    expect(accounts.filter((account) => account.providerId === 'acme').map((account) => [account.accountId, account.userId])).toEqual([
      ['ada', session?.user.id],
    ])
    const members = await rows(auth, 'member')
    expect(members.find((member) => member.userId === session?.user.id)).toMatchObject({ organizationId, role: 'member' })
    // The state was consumed; the cookie binding it is cleared.
    expect((await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('sso-state:'))).toEqual([])
    expect(browser.cookie(BASE, 'sso_state')).toBeUndefined()

    // Again: the same user through the linked account, to callbackURL.
    const again = await signIn(auth, new Browser(auth), 'ada', { newUserCallbackURL: '/welcome' })
    expect(again.location).toBe(`${BASE}/dashboard`)
    expect((await rows(auth, 'user')).filter((user) => user.email === 'ada@acme.test')).toHaveLength(1)
  })

  it('routes by organizationSlug, by domain and by providerId as well', async () => {
    const { auth } = await acmeAuth()
    for (const body of [{ organizationSlug: 'acme' }, { domain: 'ACME.test' }, { providerId: 'acme' }]) {
      op.login = 'ada'
      const browser = new Browser(auth)
      const start = await signInSso(browser, body)
      expect(start.status).toBe(200)
      expect((await browser.navigate(start.body.url as string)).location).toBe(`${BASE}/dashboard`)
    }
  })

  it('asks for the configured scopes and maps the groups claim to a role (organizationProvisioning)', async () => {
    const auth = ssoAuth([op.issuer], { organizationProvisioning: { roleMapping: { engineering: 'admin' } } })
    const { organizationId } = await setUpProvider(auth, {
      providerId: 'acme',
      issuer: op.issuer,
      domain: 'acme.test',
      oidcConfig: { scopes: ['groups'], mapping: { groups: 'groups' } },
    })
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', scopes: ['offline_access'] })
    expect(new URL(start.body.url as string).searchParams.get('scope')).toBe('openid email profile groups offline_access')
    expect((await browser.navigate(start.body.url as string)).location).toBe(`${BASE}/dashboard`)
    const session = await sessionOf(browser)
    expect((await rows(auth, 'member')).find((member) => member.userId === session?.user.id)).toMatchObject({ organizationId, role: 'admin' })
  })

  it('an IdP vouching for an address of another domain signs nobody in', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'mallory'
    const start = await signInSso(browser, { email: 'someone@acme.test', errorCallbackURL: '/sign-in-failed' })
    const end = await browser.navigate(start.body.url as string)
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=email_domain_mismatch`)
    expect(await sessionOf(browser)).toBeNull()
    expect((await rows(auth, 'user')).some((user) => user.email === 'mallory@evil.test')).toBe(false)
  })
})

describe('attacks on the flow', () => {
  it("refuses another browser's state: the victim's cookie names a different state (login CSRF)", async () => {
    const { auth } = await acmeAuth()
    const attacker = new Browser(auth)
    op.login = 'ada'
    const attackerStart = await signInSso(attacker, { email: 'ada@acme.test' })
    const callback = await codeCallback(attacker, attackerStart.body.url as string)

    const victim = new Browser(auth)
    await signInSso(victim, { email: 'grace@acme.test', errorCallbackURL: '/sign-in-failed' })
    const end = await victim.navigate(callback)
    expect(end.location ?? end.visited.at(-1)).toBe(`${AUTH}/error?error=please_restart_the_process`)
    expect(await sessionOf(victim)).toBeNull()
    // Nothing consumed: both states are still stored.
    expect((await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('sso-state:'))).toHaveLength(2)

    // A browser with no state cookie at all fares no better.
    const bare = await new Browser(auth).navigate(callback)
    expect(bare.visited.at(-1)).toBe(`${AUTH}/error?error=please_restart_the_process`)
  })

  it('a consumed state does not sign in twice, even with its cookie replayed', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test' })
    const cookie = browser.cookie(BASE, 'sso_state') as string
    const end = await browser.navigate(start.body.url as string)
    expect(end.location).toBe(`${BASE}/dashboard`)
    const callback = end.visited.find((visited) => visited.startsWith(`${callbackURL('acme')}?`)) as string

    const replayer = new Browser(auth)
    replayer.setCookie(BASE, 'gatehouse.sso_state', cookie)
    const replay = await replayer.navigate(callback)
    expect(replay.visited.at(-1)).toBe(`${AUTH}/error?error=please_restart_the_process`)
    expect(await sessionOf(replayer)).toBeNull()
    expect(await rows(auth, 'session')).toHaveLength(2)
  })

  it('refuses an authorization response whose iss names another issuer (mix-up), without redeeming the code', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })
    const callback = new URL(await codeCallback(browser, start.body.url as string))
    expect(callback.searchParams.get('iss')).toBe(op.issuer)
    callback.searchParams.set('iss', 'https://attacker-idp.test')
    const end = await browser.navigate(callback.toString())
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=issuer_mismatch`)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("a state issued for one provider is refused at another provider's callback", async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })
    const callback = new URL(await codeCallback(browser, start.body.url as string))
    const elsewhere = new URL(`${callbackURL('other')}${callback.search}`)
    const end = await browser.navigate(elsewhere.toString())
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=invalid_callback_request`)
  })

  it('a provider re-pointed while the sign-in is under way does not finish it', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })
    const callback = await codeCallback(browser, start.body.url as string)
    await (await auth.$context).adapter.update({ model: 'ssoProvider', where: [{ field: 'providerId', value: 'acme' }], update: { issuer: 'https://new-idp.test' } })
    const end = await browser.navigate(callback)
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=provider_changed`)
  })

  it('an expired state goes to errorCallbackURL with please_restart_the_process', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    op.login = 'ada'
    const start = await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '/sign-in-failed' })
    const callback = await codeCallback(browser, start.body.url as string)
    auth.clock.advance(10 * 60 * 1000 + 1)
    const end = await browser.navigate(callback)
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=please_restart_the_process`)
  })

  it('a callback without state goes to the error page with state_not_found', async () => {
    const { auth } = await acmeAuth()
    const response = await new Browser(auth).request(`${callbackURL('acme')}?code=abc`)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${AUTH}/error?error=state_not_found`)
  })
})

describe('POST /sign-in/sso routing', () => {
  it('routes an email only to a verified domain: unverified, unknown and unregistered domains all answer 404 alike', async () => {
    const auth = ssoAuth([op.issuer])
    await setUpProvider(auth, { providerId: 'acme', issuer: op.issuer, domain: 'acme.test' }, { verify: false })
    const browser = new Browser(auth)
    // A user exists at one address and not at the others: the answers do not say which.
    await post(browser, '/sign-up/email', { email: 'known@plain.test', password: 'correct horse battery staple', name: 'Known' })
    const answers = await Promise.all(
      ['ada@acme.test', 'known@plain.test', 'unknown@plain.test', 'not-an-email'].map((email) => signInSso(new Browser(auth), { email })),
    )
    for (const answer of answers) expect(answer).toEqual({ status: 404, body: { code: 'PROVIDER_NOT_FOUND', message: 'Provider not found' } })
    // By providerId the unverified provider is found, and refused (domainVerification.required).
    expect(await signInSso(browser, { providerId: 'acme' })).toMatchObject({ status: 400, body: { code: 'PROVIDER_DOMAIN_NOT_VERIFIED' } })
    // No flow was started for any of them.
    expect((await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('sso-state:'))).toEqual([])
  })

  it('an organization with an OIDC and a SAML provider: providerType or the domain chooses, else 400', async () => {
    const { auth, admin, organizationId } = await acmeAuth()
    const saml = await post(admin, '/sso/register', {
      providerId: 'acme-saml',
      issuer: IDP_ENTITY_ID,
      domain: 'saml.acme.test',
      organizationId,
      samlConfig: { entryPoint: IDP_SSO_URL, cert: identity('acme-saml').cert, callbackUrl: '/dashboard', idpMetadata: { entityID: IDP_ENTITY_ID } },
    })
    expect(saml.status).toBe(200)
    auth.txt.set('_gatehouse-challenge.saml.acme.test', [[saml.body.domainVerificationToken as string]])
    expect((await post(admin, '/sso/verify-domain', { providerId: 'acme-saml' })).status).toBe(204)

    const browser = new Browser(auth)
    expect(await signInSso(browser, { organizationSlug: 'acme' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    const isSaml = (answer: { body: Record<string, unknown> }) => String(answer.body.url).startsWith(`${IDP_SSO_URL}?SAMLRequest=`)
    const isOidc = (answer: { body: Record<string, unknown> }) => String(answer.body.url).startsWith(`${op.issuer}/`)
    expect(isSaml(await signInSso(browser, { organizationSlug: 'acme', providerType: 'saml' }))).toBe(true)
    expect(isOidc(await signInSso(browser, { organizationSlug: 'acme', providerType: 'oidc' }))).toBe(true)
    expect(isSaml(await signInSso(browser, { organizationSlug: 'acme', email: 'ada@saml.acme.test' }))).toBe(true)
    expect(isSaml(await signInSso(browser, { email: 'ada@saml.acme.test' }))).toBe(true)
    expect(isOidc(await signInSso(browser, { email: 'ada@acme.test' }))).toBe(true)
    expect(await signInSso(browser, { providerId: 'acme-saml', providerType: 'oidc' })).toMatchObject({ status: 400, body: { code: 'OIDC_NOT_CONFIGURED' } })
  })

  it('needs a target; checks redirect URLs like every route (relative or trusted origins)', async () => {
    const { auth } = await acmeAuth()
    const browser = new Browser(auth)
    expect(await signInSso(browser, {})).toMatchObject({ status: 400, body: { code: 'SIGN_IN_TARGET_REQUIRED' } })
    expect(await signInSso(browser, { email: 'ada@acme.test', callbackURL: 'https://evil.test/' })).toMatchObject({
      status: 403,
      body: { message: 'Invalid callbackURL' },
    })
    expect(await signInSso(browser, { email: 'ada@acme.test', errorCallbackURL: '//evil.test' })).toMatchObject({ status: 403 })
    expect(await signInSso(browser, { email: 'ada@acme.test', providerType: 'saml' })).toMatchObject({ status: 400, body: { code: 'SAML_NOT_CONFIGURED' } })
    expect(await post(browser, '/sign-in/sso', { email: 'ada@acme.test' })).toMatchObject({ status: 400 })
  })
})
