/**
 * Social sign-in against a plain OAuth 2.0 provider on loopback (node:http),
 * configured as a generic OAuth 2.0 provider by its endpoints: find or
 * create, each linking refusal, sign-up switches, provider errors and
 * outages, the concurrent first sign-in, link-social, unlink, and token
 * refresh through get-access-token and refresh-token.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SignJWT } from 'jose'
import { encryptToken } from '../src/social/token-crypto.js'
import type { GenericOAuthConfig } from '../src/types/social.js'
import { accountAuth, PASSWORD } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE } from './helpers.js'
import { Browser, closedPort, shiftedClock, startOAuthProvider, startSocial } from './social-fixtures.js'

const AUTH = `${BASE}/api/auth`
const ERROR_PAGE = `${AUTH}/error`
const CLIENT = { clientId: 'mock-client', clientSecret: 'mock-secret-0123456789' }
const DAY = 24 * 60 * 60 * 1000

let mock: Awaited<ReturnType<typeof startOAuthProvider>>

beforeAll(async () => {
  mock = await startOAuthProvider(CLIENT)
})
afterAll(async () => {
  await mock.close()
})
beforeEach(() => {
  Object.assign(mock.behaviour, {
    user: { id: 'u-1', email: 'person@example.com', email_verified: true, name: 'Person' },
    error: null,
    omitCode: false,
    tokenDelay: 0,
    expiresIn: 3600,
  })
})

function mockConfig(overrides: Partial<GenericOAuthConfig> = {}): GenericOAuthConfig {
  return {
    type: 'oauth2',
    ...CLIENT,
    authorizationEndpoint: `${mock.origin}/authorize`,
    tokenEndpoint: `${mock.origin}/token`,
    userInfoEndpoint: `${mock.origin}/me`,
    defaultScopes: ['read'],
    mapProfile: (profile) => ({
      id: String(profile.id),
      email: typeof profile.email === 'string' ? profile.email : null,
      emailVerified: profile.email_verified === true,
      name: String(profile.name),
      image: null,
      data: profile,
    }),
    ...overrides,
  }
}

function mockAuth(options: Parameters<typeof accountAuth>[0] & { mock?: Partial<GenericOAuthConfig> } = {}) {
  const { mock: overrides, ...rest } = options
  const clock = shiftedClock()
  const auth = accountAuth({ clock, socialProviders: { mock: mockConfig(overrides) }, ...rest })
  return Object.assign(auth, { clock })
}

type TestAuth = ReturnType<typeof mockAuth>

async function flow(auth: TestAuth, browser = new Browser(auth), body: Record<string, unknown> = {}, path = '/sign-in/social') {
  const start = await startSocial(browser, { provider: 'mock', callbackURL: '/dashboard', ...body }, path)
  if (start.response.status !== 200) return { start, end: null, browser, landed: null }
  const end = await browser.navigate(start.body.url as string)
  return { start, end, browser, landed: end.location ?? end.visited.at(-1) ?? null }
}

async function rows(auth: TestAuth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function signUpLocal(auth: TestAuth, browser: Browser, email: string) {
  const response = await browser.request(`${AUTH}/sign-up/email`, { json: { email, password: PASSWORD, name: 'Local' }, headers: { origin: BASE } })
  return (await response.json()).user as { id: string }
}

async function verifyEmail(auth: TestAuth, userId: string) {
  await (await auth.$context).db.update({ model: 'user', where: { field: 'id', value: userId }, update: { emailVerified: true } })
}

async function sessionUser(browser: Browser) {
  const body = await (await browser.request(`${AUTH}/get-session`)).json()
  return body?.user as { id: string; email: string; emailVerified: boolean } | undefined
}

describe('sign-up and sign-in', () => {
  it('creates the user and the account in one go; the token request carried the PKCE verifier and client credentials', async () => {
    const auth = mockAuth()
    const { landed, browser, start } = await flow(auth, undefined, { newUserCallbackURL: '/welcome' })
    expect(landed).toBe(`${BASE}/welcome`)
    const params = mock.stats.authorizeParams.at(-1) as URLSearchParams
    expect(params.get('nonce')).toBeNull()
    expect(params.get('scope')).toBe('read')
    expect(new URL(start.body.url as string).searchParams.get('code_challenge_method')).toBe('S256')
    expect(await sessionUser(browser)).toMatchObject({ email: 'person@example.com', emailVerified: true })
    expect(await rows(auth, 'account')).toEqual([expect.objectContaining({ providerId: 'mock', accountId: 'u-1', scope: 'read' })])
  })

  it('twenty concurrent first sign-ins of one provider account make one user and one account, and all sign in', async () => {
    const auth = mockAuth()
    const browsers = Array.from({ length: 20 }, () => new Browser(auth))
    const starts = await Promise.all(browsers.map((browser) => startSocial(browser, { provider: 'mock', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' })))
    const ends = await Promise.all(browsers.map((browser, index) => browser.navigate(starts[index]?.body.url as string)))
    const landed = ends.map((end) => end.location)
    expect(landed.filter((location) => location === `${BASE}/welcome`)).toHaveLength(1)
    expect(landed.filter((location) => location === `${BASE}/dashboard`)).toHaveLength(19)
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(await rows(auth, 'account')).toHaveLength(1)
    expect(await rows(auth, 'session')).toHaveLength(20)
  })

  it('signup_disabled with disableSignUp, and with disableImplicitSignUp unless requestSignUp', async () => {
    const off = mockAuth({ mock: { disableSignUp: true } })
    expect((await flow(off)).landed).toBe(`${ERROR_PAGE}?error=signup_disabled`)
    expect((await flow(off, undefined, { requestSignUp: true })).landed).toBe(`${ERROR_PAGE}?error=signup_disabled`)
    expect(await rows(off, 'user')).toHaveLength(0)

    const implicit = mockAuth({ mock: { disableImplicitSignUp: true } })
    expect((await flow(implicit, undefined, { errorCallbackURL: '/oops' })).landed).toBe(`${BASE}/oops?error=signup_disabled`)
    expect((await flow(implicit, undefined, { requestSignUp: true })).landed).toBe(`${BASE}/dashboard`)
    expect(await rows(implicit, 'user')).toHaveLength(1)
  })

  it('database hooks run on the created rows; a vetoed user is unable_to_create_user, a vetoed session unable_to_create_session', async () => {
    const created: string[] = []
    const hooked = mockAuth({ databaseHooks: { user: { create: { after: (row) => void created.push(String(row.email)) } } } })
    await flow(hooked)
    expect(created).toEqual(['person@example.com'])

    const noUser = mockAuth({ databaseHooks: { user: { create: { before: () => { throw new Error('vetoed') } } } } })
    expect((await flow(noUser)).landed).toBe(`${ERROR_PAGE}?error=unable_to_create_user`)
    expect(await rows(noUser, 'account')).toHaveLength(0)

    const noSession = mockAuth({ databaseHooks: { session: { create: { before: () => { throw new Error('vetoed') } } } } })
    const { landed, browser } = await flow(noSession)
    expect(landed).toBe(`${ERROR_PAGE}?error=unable_to_create_session`)
    expect(await sessionUser(browser)).toBeUndefined()
  })

  it('mapProfileToUser sets fields of the new user, but never its email or verification', async () => {
    const auth = mockAuth({ mock: { mapProfileToUser: (profile) => ({ name: `${profile.name} (mock)`, email: 'other@example.com', emailVerified: false }) } })
    const { browser } = await flow(auth)
    expect(await sessionUser(browser)).toMatchObject({ name: 'Person (mock)', email: 'person@example.com', emailVerified: true })
  })
})

describe('linking by email', () => {
  it('links to a verified local user when the provider says the email is verified', async () => {
    const auth = mockAuth()
    const local = await signUpLocal(auth, new Browser(auth), 'person@example.com')
    await verifyEmail(auth, local.id)
    const { landed, browser } = await flow(auth)
    expect(landed).toBe(`${BASE}/dashboard`)
    expect((await sessionUser(browser))?.id).toBe(local.id)
    expect((await rows(auth, 'account')).map((row) => row.providerId).sort()).toEqual(['credential', 'mock'])
  })

  it('account_not_linked when the provider does not vouch for the email', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email_verified: false }
    const auth = mockAuth()
    const local = await signUpLocal(auth, new Browser(auth), 'person@example.com')
    await verifyEmail(auth, local.id)
    const { landed, browser } = await flow(auth)
    expect(landed).toBe(`${ERROR_PAGE}?error=account_not_linked`)
    expect(await sessionUser(browser)).toBeUndefined()
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['credential'])
  })

  it('a trusted provider links without a verified flag', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email_verified: false }
    const auth = mockAuth({ account: { accountLinking: { trustedProviders: ['mock'] } } })
    const local = await signUpLocal(auth, new Browser(auth), 'person@example.com')
    await verifyEmail(auth, local.id)
    expect((await flow(auth)).landed).toBe(`${BASE}/dashboard`)
    expect(await rows(auth, 'account')).toHaveLength(2)
  })

  it('a vouched sign-in into an unverified local account proves the mailbox: verified, earlier sessions and password gone', async () => {
    const auth = mockAuth()
    const squatter = new Browser(auth)
    const local = await signUpLocal(auth, squatter, 'person@example.com')
    expect(await sessionUser(squatter)).toMatchObject({ id: local.id })

    const { landed, browser } = await flow(auth)
    expect(landed).toBe(`${BASE}/dashboard`)
    expect(await sessionUser(browser)).toMatchObject({ id: local.id, emailVerified: true })
    // The registrant's session and password end with the owner's proof; the proving provider account stays.
    expect(await sessionUser(squatter)).toBeUndefined()
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['mock'])
    expect(await rows(auth, 'session')).toHaveLength(1)
    const signIn = await new Browser(auth).request(`${AUTH}/sign-in/email`, { json: { email: 'person@example.com', password: PASSWORD }, headers: { origin: BASE } })
    expect(signIn.status).toBe(401)
  })

  it('a provider that does not vouch for the address links nothing, changes nothing and creates no user', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email_verified: false }
    const auth = mockAuth()
    const squatter = new Browser(auth)
    const local = await signUpLocal(auth, squatter, 'person@example.com')
    expect((await flow(auth)).landed).toBe(`${ERROR_PAGE}?error=account_not_linked`)
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['credential'])
    expect(await sessionUser(squatter)).toMatchObject({ id: local.id, emailVerified: false })

    const fresh = mockAuth()
    const logs = captureLogs()
    const quiet = mockAuth({ logger: logs.logger })
    for (const target of [fresh, quiet]) {
      expect((await flow(target)).landed).toBe(`${ERROR_PAGE}?error=unable_to_create_user`)
      expect(await rows(target, 'user')).toEqual([])
      expect(await rows(target, 'account')).toEqual([])
    }
    expect(logs.lines.some((line) => line.includes('does not vouch for the address'))).toBe(true)
  })

  it('a trusted provider vouches for its addresses: it may create the user, and link onto an unverified one as a proof', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email_verified: false }
    const auth = mockAuth({ account: { accountLinking: { trustedProviders: ['mock'] } } })
    const squatter = new Browser(auth)
    await signUpLocal(auth, squatter, 'person@example.com')
    const { landed, browser } = await flow(auth)
    expect(landed).toBe(`${BASE}/dashboard`)
    expect(await sessionUser(browser)).toMatchObject({ email: 'person@example.com', emailVerified: true })
    expect(await sessionUser(squatter)).toBeUndefined()
  })

  it('account_not_linked when account linking is turned off', async () => {
    const auth = mockAuth({ account: { accountLinking: { enabled: false } } })
    const local = await signUpLocal(auth, new Browser(auth), 'person@example.com')
    await verifyEmail(auth, local.id)
    expect((await flow(auth)).landed).toBe(`${ERROR_PAGE}?error=account_not_linked`)
  })
})

describe('provider errors and outages end in an error redirect', () => {
  it('passes the provider’s error code on, and answers no_code without a code', async () => {
    const auth = mockAuth()
    mock.behaviour.error = 'access_denied'
    expect((await flow(auth, undefined, { errorCallbackURL: '/oops?from=social' })).landed).toBe(`${BASE}/oops?from=social&error=access_denied`)
    mock.behaviour.error = null
    mock.behaviour.omitCode = true
    expect((await flow(auth)).landed).toBe(`${ERROR_PAGE}?error=no_code`)
  })

  it('email_not_found when the profile has no email', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email: null }
    const auth = mockAuth()
    expect((await flow(auth)).landed).toBe(`${ERROR_PAGE}?error=email_not_found`)
  })

  it('invalid_code when the token endpoint is down (closed port) or too slow (5 s timeout)', async () => {
    const down = mockAuth({ mock: { tokenEndpoint: `${await closedPort()}/token` } })
    expect((await flow(down)).landed).toBe(`${ERROR_PAGE}?error=invalid_code`)

    const slow = mockAuth()
    mock.behaviour.tokenDelay = 6000
    // Without the timeout the delayed answer would arrive and the flow would succeed.
    expect((await flow(slow)).landed).toBe(`${ERROR_PAGE}?error=invalid_code`)
  }, 20_000)

  it('invalid_code when the client secret is wrong; unable_to_get_user_info when the profile endpoint is down', async () => {
    const wrong = mockAuth({ mock: { clientSecret: 'not-the-secret' } })
    expect((await flow(wrong)).landed).toBe(`${ERROR_PAGE}?error=invalid_code`)
    const noProfile = mockAuth({ mock: { userInfoEndpoint: `${await closedPort()}/me` } })
    expect((await flow(noProfile)).landed).toBe(`${ERROR_PAGE}?error=unable_to_get_user_info`)
  })

  it('a generic OpenID Connect provider whose discovery is down: 503 Provider is unavailable, nothing stored', async () => {
    const auth = mockAuth({ socialProviders: { corp: { type: 'oidc', issuer: await closedPort(), clientId: 'c', clientSecret: 's' } } })
    const { response, body } = await startSocial(new Browser(auth), { provider: 'corp' })
    expect(response.status).toBe(503)
    expect(body).toEqual({ code: 'PROVIDER_UNAVAILABLE', message: 'Provider is unavailable' })
    expect(await rows(auth, 'verification')).toHaveLength(0)
  })

  it('refuses untrusted redirect targets when the flow starts, and unknown providers', async () => {
    const auth = mockAuth()
    const browser = new Browser(auth)
    for (const [field, message] of [
      ['callbackURL', 'Invalid callbackURL'],
      ['errorCallbackURL', 'Invalid errorCallbackURL'],
      ['newUserCallbackURL', 'Invalid newUserCallbackURL'],
    ] as const) {
      const { response, body } = await startSocial(browser, { provider: 'mock', [field]: 'https://evil.test/x' })
      expect(response.status).toBe(403)
      expect(body.message).toBe(message)
    }
    const unknown = await startSocial(browser, { provider: 'nope' })
    expect(unknown.response.status).toBe(404)
    expect(unknown.body.message).toBe('Provider not found')
    expect(await rows(auth, 'verification')).toHaveLength(0)
  })
})

describe('link-social', () => {
  async function signedIn(auth: TestAuth, email = 'person@example.com') {
    const browser = new Browser(auth)
    const user = await signUpLocal(auth, browser, email)
    return { browser, user }
  }

  it('links the provider account to the signed-in user and lands on callbackURL', async () => {
    const auth = mockAuth()
    const { browser, user } = await signedIn(auth)
    const { landed } = await flow(auth, browser, { callbackURL: '/settings' }, '/link-social')
    expect(landed).toBe(`${BASE}/settings`)
    const accounts = await (await browser.request(`${AUTH}/list-accounts`)).json()
    expect(accounts.map((account: { provider: string }) => account.provider).sort()).toEqual(['credential', 'mock'])
    expect((await rows(auth, 'account')).every((row) => row.userId === user.id)).toBe(true)
  })

  it('needs a session', async () => {
    const auth = mockAuth()
    const { response } = await startSocial(new Browser(auth), { provider: 'mock' }, '/link-social')
    expect(response.status).toBe(401)
  })

  it('unable_to_link_account for a different email unless allowDifferentEmails', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email: 'elsewhere@example.com' }
    const auth = mockAuth()
    const { browser } = await signedIn(auth)
    expect((await flow(auth, browser, {}, '/link-social')).landed).toBe(`${ERROR_PAGE}?error=unable_to_link_account`)

    const allowed = mockAuth({ account: { accountLinking: { allowDifferentEmails: true } } })
    const other = await signedIn(allowed)
    expect((await flow(allowed, other.browser, {}, '/link-social')).landed).toBe(`${BASE}/dashboard`)
  })

  it('unable_to_link_account when the provider does not vouch for the email', async () => {
    mock.behaviour.user = { ...mock.behaviour.user, email_verified: false }
    const auth = mockAuth()
    const { browser } = await signedIn(auth)
    expect((await flow(auth, browser, {}, '/link-social')).landed).toBe(`${ERROR_PAGE}?error=unable_to_link_account`)
  })

  it('account_already_linked_to_different_user when another user has the provider account', async () => {
    const auth = mockAuth({ account: { accountLinking: { allowDifferentEmails: true } } })
    await flow(auth)
    const { browser } = await signedIn(auth, 'someone@example.com')
    expect((await flow(auth, browser, {}, '/link-social')).landed).toBe(`${ERROR_PAGE}?error=account_already_linked_to_different_user`)
  })

  it('needs a fresh session: 403 "Session is not fresh" past freshAge, and no flow starts', async () => {
    const auth = mockAuth()
    const { browser } = await signedIn(auth)
    auth.clock.advance(2 * DAY)
    const { response, body } = await startSocial(browser, { provider: 'mock' }, '/link-social')
    expect(response.status).toBe(403)
    expect(body).toEqual({ code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' })
    expect(await rows(auth, 'verification')).toHaveLength(0)
  })

  it('links only for the user who started it: a different session at the callback is refused', async () => {
    const auth = mockAuth()
    const { browser } = await signedIn(auth)
    const start = await startSocial(browser, { provider: 'mock' }, '/link-social')
    // The first user signs out and another signs in, in the same browser, before the provider answers.
    await browser.request(`${AUTH}/sign-out`, { method: 'POST', headers: { origin: BASE } })
    await signUpLocal(auth, browser, 'second@example.com')
    const end = await browser.navigate(start.body.url as string)
    expect(end.visited.at(-1)).toBe(`${ERROR_PAGE}?error=unable_to_link_account`)
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['credential', 'credential'])
  })
})

describe('unlink-account', () => {
  it('refuses to unlink the last sign-in method of a social-only user, and unlinks a second one', async () => {
    const auth = mockAuth()
    const { browser } = await flow(auth)
    const last = await browser.request(`${AUTH}/unlink-account`, { json: { providerId: 'mock' }, headers: { origin: BASE } })
    expect(last.status).toBe(400)
    expect((await last.json()).message).toBe("You can't unlink your last account")

    const linked = mockAuth()
    const local = new Browser(linked)
    await signUpLocal(linked, local, 'person@example.com')
    await flow(linked, local, {}, '/link-social')
    const unlinked = await local.request(`${AUTH}/unlink-account`, { json: { providerId: 'mock' }, headers: { origin: BASE } })
    expect(await unlinked.json()).toEqual({ status: true })
    expect((await rows(linked, 'account')).map((row) => row.providerId)).toEqual(['credential'])
  })
})

describe('a session revoked elsewhere, still vouched for by its cache cookie', () => {
  it('is 401 on link-social, get-access-token, refresh-token, account-info and update-user: they read the store', async () => {
    const auth = mockAuth({ session: { cookieCache: { enabled: true } } })
    const { browser } = await flow(auth)
    const stolen = browser.cookies(AUTH)
    expect(stolen).toContain('session_data=')
    // The same user, on another device, signs every session out.
    const other = await flow(auth)
    expect((await other.browser.request(`${AUTH}/revoke-sessions`, { method: 'POST', headers: { origin: BASE } })).status).toBe(200)
    const send = (path: string, json?: unknown) =>
      auth.handler(
        new Request(`${AUTH}${path}`, {
          method: json === undefined ? 'GET' : 'POST',
          headers: { cookie: stolen, origin: BASE, 'content-type': 'application/json' },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        }),
      )
    // The cache cookie still vouches for the session on routes that may trust it ...
    expect((await (await send('/get-session')).json())?.user.email).toBe('person@example.com')

    // ... but not where it would add a way in or hand out provider tokens.
    const refreshesBefore = mock.stats.refreshes
    const statuses: Record<string, number> = {}
    for (const [path, json] of [
      ['/link-social', { provider: 'mock', callbackURL: '/settings' }],
      ['/get-access-token', { providerId: 'mock' }],
      ['/refresh-token', { providerId: 'mock' }],
      ['/account-info', { accountId: 'u-1' }],
      ['/update-user', { name: 'Mallory' }],
    ] as const) {
      statuses[path] = (await send(path, json)).status
    }
    expect(statuses).toEqual({ '/link-social': 401, '/get-access-token': 401, '/refresh-token': 401, '/account-info': 401, '/update-user': 401 })
    expect(mock.stats.refreshes).toBe(refreshesBefore)
    expect(await rows(auth, 'verification')).toHaveLength(0)
    expect((await rows(auth, 'user'))[0]?.name).toBe('Person')
  })
})

describe('input limits', () => {
  it('caps scopes (50, each 256), loginHint (320) and redirect targets (2048): 400 naming the field, no state stored', async () => {
    const auth = mockAuth()
    const browser = new Browser(auth)
    const cases = [
      [{ scopes: Array.from({ length: 51 }, (_, index) => `s${index}`) }, 'body.scopes: Too big: expected array to have <=50 items'],
      [{ scopes: ['read', 's'.repeat(257)] }, 'body.scopes.1: Too big: expected string to have <=256 characters'],
      [{ loginHint: 'h'.repeat(321) }, 'body.loginHint: Too big: expected string to have <=320 characters'],
      [{ callbackURL: `/${'c'.repeat(2048)}` }, 'body.callbackURL: Too big: expected string to have <=2048 characters'],
      [{ errorCallbackURL: `/${'e'.repeat(2048)}` }, 'body.errorCallbackURL: Too big: expected string to have <=2048 characters'],
    ] as const
    for (const [fields, message] of cases) {
      const { response, body } = await startSocial(browser, { provider: 'mock', ...fields })
      expect(response.status).toBe(400)
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message })
    }
    // The same cap on a redirect target in a query string, on any route.
    const query = await auth.handler(new Request(`${AUTH}/verify-email?token=x&callbackURL=/${'q'.repeat(2048)}`))
    expect(query.status).toBe(400)
    expect((await query.json()).message).toBe('query.callbackURL: Too big: expected string to have <=2048 characters')
    expect(await rows(auth, 'verification')).toHaveLength(0)

    const atLimits = await startSocial(browser, {
      provider: 'mock',
      scopes: Array.from({ length: 50 }, (_, index) => String(index).padEnd(256, 's')),
      loginHint: 'h'.repeat(320),
      callbackURL: `/${'c'.repeat(2047)}`,
    })
    expect(atLimits.response.status).toBe(200)
    expect(await rows(auth, 'verification')).toHaveLength(1)
  })
})

describe('provider tokens', () => {
  it('get-access-token: concurrent calls on a due token make one refresh request', async () => {
    mock.behaviour.expiresIn = 3
    const auth = mockAuth()
    const { browser } = await flow(auth)
    const refreshesBefore = mock.stats.refreshes
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'mock' }, headers: { origin: BASE } }).then((r) => r.json())),
    )
    expect(mock.stats.refreshes - refreshesBefore).toBe(1)
    expect(new Set(answers.map((answer) => answer.accessToken)).size).toBe(1)
    expect(mock.accessTokens.has(answers[0].accessToken)).toBe(true)
    expect(answers[0]).toMatchObject({ scopes: ['read'], idToken: null })
  })

  it('refresh-token rotates the stored tokens; a failed refresh is a 400', async () => {
    const auth = mockAuth()
    const { browser } = await flow(auth)
    const [before] = (await rows(auth, 'account')) as Array<Record<string, string>>
    const response = await browser.request(`${AUTH}/refresh-token`, { json: { providerId: 'mock' }, headers: { origin: BASE } })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ tokenType: 'bearer', idToken: null })
    expect(body.refreshToken).toMatch(/^rt-/)
    const [after] = (await rows(auth, 'account')) as Array<Record<string, string>>
    expect(after?.refreshToken).not.toBe(before?.refreshToken)
    expect(after?.refreshToken).not.toContain(body.refreshToken)

    const unknown = await browser.request(`${AUTH}/refresh-token`, { json: { providerId: 'github' }, headers: { origin: BASE } })
    expect(await unknown.json()).toMatchObject({ message: 'Provider github is not supported.' })

    // The provider forgets the grant: the refresh is refused.
    const db = (await auth.$context).db
    await db.update({ model: 'account', where: { field: 'id', value: after?.id as string }, update: { refreshToken: before?.refreshToken } })
    const refused = await browser.request(`${AUTH}/refresh-token`, { json: { providerId: 'mock' }, headers: { origin: BASE } })
    expect(refused.status).toBe(400)
    expect((await refused.json()).message).toBe('Failed to refresh access token')
  })

  it('logs failures without codes, tokens or secrets', async () => {
    const logs = captureLogs()
    const auth = mockAuth({ logger: logs.logger, mock: { userInfoEndpoint: `${await closedPort()}/me` } })
    expect((await flow(auth)).landed).toBe(`${ERROR_PAGE}?error=unable_to_get_user_info`)
    const wrongSecret = mockAuth({ logger: logs.logger, mock: { clientSecret: 'wrong-secret-value' } })
    const { start } = await flow(wrongSecret)
    const good = mockAuth({ logger: logs.logger })
    const { browser } = await flow(good)
    const [account] = (await rows(good, 'account')) as Array<Record<string, string>>
    // The provider no longer knows the stored refresh token: the refresh fails, and is logged.
    await (await good.$context).db.update({ model: 'account', where: { field: 'id', value: account?.id as string }, update: { accessTokenExpiresAt: new Date(0) } })
    mock.refreshTokens.clear()
    const failed = await browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'mock' }, headers: { origin: BASE } })
    expect(failed.status).toBe(400)
    expect((await failed.json()).message).toBe('Failed to get a valid access token')
    expect(logs.lines.some((line) => line.includes('token refresh failed'))).toBe(true)
    expect(logs.lines.some((line) => line.includes('user info failed'))).toBe(true)
    expect(logs.lines.some((line) => line.includes('code exchange failed'))).toBe(true)
    const state = new URL(start.body.url as string).searchParams.get('state') as string
    expect(logs.leaked(state, CLIENT.clientSecret, 'wrong-secret-value', 'code-', 'at-', 'rt-', 'v1.')).toEqual([])
  })

  it('account-info for a provider without a UserInfo endpoint (Apple) answers from the ID Token stored at sign-in', async () => {
    const auth = mockAuth({ socialProviders: { apple: { clientId: 'com.example.web', clientSecret: 'apple-client-secret-jwt' } } })
    const browser = new Browser(auth)
    const user = await signUpLocal(auth, browser, 'ada@privaterelay.appleid.com')
    const context = await auth.$context
    const binding = { providerId: 'apple', accountId: '001234.abcd' }
    const idToken = await new SignJWT({ email: 'ada@privaterelay.appleid.com', email_verified: 'true', is_private_email: 'true' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://appleid.apple.com')
      .setSubject(binding.accountId)
      .sign(new Uint8Array(32))
    await context.db.create({
      model: 'account',
      data: {
        ...binding,
        userId: user.id,
        accessToken: await encryptToken(context.secrets, 'accessToken', binding, 'apple-access'),
        idToken: await encryptToken(context.secrets, 'idToken', binding, idToken),
      },
    })
    const response = await browser.request(`${AUTH}/account-info`, { json: { accountId: binding.accountId }, headers: { origin: BASE } })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      user: { id: binding.accountId, email: 'ada@privaterelay.appleid.com', emailVerified: true },
      data: { is_private_email: true },
    })
  })

  it('account-info reads the provider profile with the stored token', async () => {
    const auth = mockAuth()
    const { browser } = await flow(auth)
    const response = await browser.request(`${AUTH}/account-info`, { json: { accountId: 'u-1' }, headers: { origin: BASE } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      user: { id: 'u-1', name: 'Person', email: 'person@example.com', image: null, emailVerified: true },
      data: { id: 'u-1', email: 'person@example.com', email_verified: true, name: 'Person' },
    })
  })
})
