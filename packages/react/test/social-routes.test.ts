// @vitest-environment node
/**
 * The client's social routes against a real server with a plain OAuth 2.0
 * provider on loopback (core's mock): `signIn.social` sends the browser to
 * the provider (or not, with `disableRedirect`), the provider's redirect
 * lands signed in, and `linkSocial`, `getAccessToken`, `refreshToken` and
 * `accountInfo` answer the shapes the client checks, Dates revived.
 * Node's environment, not jsdom: the server half hashes with Node's crypto,
 * whose byte arrays jsdom's realm does not recognise.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Browser as ProviderLeg, startOAuthProvider } from '../../core/test/social-fixtures.js'
import { BASE, SECRET } from '../../core/test/helpers.js'
import { createAuthClient } from '../src/client/index.js'
import { browser, type Browser } from './browser.js'
import { PASSWORD, email } from './fixtures.js'
import { datesLeftAsText } from './routes.js'

const CLIENT = { clientId: 'react-client', clientSecret: 'react-secret-0123456789' }
let mock: Awaited<ReturnType<typeof startOAuthProvider>>

beforeAll(async () => {
  mock = await startOAuthProvider(CLIENT)
})
afterAll(async () => {
  await mock.close()
})

function socialServer() {
  return createAuth({
    baseURL: BASE,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    rateLimit: { enabled: false },
    emailAndPassword: { enabled: true },
    account: { accountLinking: { enabled: true } },
    socialProviders: {
      mock: {
        type: 'oauth2',
        ...CLIENT,
        name: 'Mock',
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
      },
    },
  })
}

type SocialServer = ReturnType<typeof socialServer>

/** What the browser does after `navigate(url)`: visits the provider, which redirects to the callback; the cookies come back. */
async function visitProvider(server: SocialServer, tab: Browser, url: string): Promise<string | null> {
  const leg = new ProviderLeg(server)
  for (const [name, value] of tab.cookies) leg.setCookie(BASE, name, value)
  const { location } = await leg.navigate(url)
  for (const pair of leg.cookies(BASE).split('; ').filter(Boolean)) {
    const index = pair.indexOf('=')
    tab.cookies.set(pair.slice(0, index), pair.slice(index + 1))
  }
  return location
}

describe('social routes of the client', () => {
  it('signIn.social sends the browser to the provider and lands signed in', async () => {
    const server = socialServer()
    const tab = browser(server)
    const visits: string[] = []
    const client = createAuthClient<typeof server>({ baseURL: BASE, fetch: tab.fetch, navigate: (url) => visits.push(url) })
    const address = email()
    mock.behaviour.user = { id: 'mock-1', email: address, email_verified: true, name: 'Grace' }

    const started = await client.signIn.social({ provider: 'mock', callbackURL: '/home', newUserCallbackURL: '/welcome' })
    expect(started.error).toBeNull()
    expect(started.data).toEqual({ url: expect.stringMatching(`^${mock.origin}/authorize\\?`), redirect: true })
    expect(visits).toEqual([started.data?.url])
    expect(tab.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/sign-in/social', credentials: 'include' })

    expect(await visitProvider(server, tab, visits[0] ?? '')).toBe(`${BASE}/welcome`)
    const session = await client.getSession()
    expect(session.data?.user).toMatchObject({ email: address, name: 'Grace', emailVerified: true })
    const accounts = await client.listAccounts()
    expect(accounts.data?.map((account) => [account.provider, account.accountId])).toEqual([['mock', 'mock-1']])
  })

  it('leaves navigation to the caller with disableRedirect, and answers errors from the catalogue', async () => {
    const server = socialServer()
    const tab = browser(server)
    const visits: string[] = []
    const client = createAuthClient<typeof server>({ baseURL: BASE, fetch: tab.fetch, navigate: (url) => visits.push(url) })
    const quiet = await client.signIn.social({ provider: 'mock', disableRedirect: true })
    expect(quiet.data).toEqual({ url: expect.stringContaining(`${mock.origin}/authorize?`), redirect: false })
    expect(visits).toEqual([])
    expect(await client.signIn.social({ provider: 'nobody' })).toEqual({
      data: null,
      error: { status: 404, code: 'PROVIDER_NOT_FOUND', message: 'Provider not found' },
    })
    expect(visits).toEqual([])
  })

  it('links, reads tokens and the provider profile of a linked account', async () => {
    const server = socialServer()
    const tab = browser(server)
    const visits: string[] = []
    const client = createAuthClient<typeof server>({ baseURL: BASE, fetch: tab.fetch, navigate: (url) => visits.push(url) })
    const address = email()
    expect((await client.signUp.email({ name: 'Ada', email: address, password: PASSWORD })).error).toBeNull()
    mock.behaviour.user = { id: 'mock-ada', email: address, email_verified: true, name: 'Ada at Mock' }

    const link = await client.linkSocial({ provider: 'mock', callbackURL: '/profile' })
    expect(link.data).toEqual({ url: expect.stringContaining(`${mock.origin}/authorize?`), redirect: true })
    expect(visits).toHaveLength(1)
    expect(await visitProvider(server, tab, visits[0] ?? '')).toBe(`${BASE}/profile`)
    expect((await client.listAccounts()).data?.map((account) => account.provider).sort()).toEqual(['credential', 'mock'])

    const access = await client.getAccessToken({ providerId: 'mock' })
    expect(access.error).toBeNull()
    expect(access.data?.accessToken).toMatch(/^at-/)
    expect(access.data?.accessTokenExpiresAt).toBeInstanceOf(Date)
    expect(access.data?.scopes).toEqual(['read'])

    const refreshed = await client.refreshToken({ providerId: 'mock' })
    expect(refreshed.error).toBeNull()
    expect(refreshed.data?.accessToken).toMatch(/^at-/)
    expect(refreshed.data?.accessToken).not.toBe(access.data?.accessToken)
    expect(refreshed.data?.accessTokenExpiresAt).toBeInstanceOf(Date)

    const info = await client.accountInfo({ accountId: 'mock-ada' })
    expect(info).toEqual({
      data: {
        user: { id: 'mock-ada', name: 'Ada at Mock', email: address, image: null, emailVerified: true },
        data: { id: 'mock-ada', email: address, email_verified: true, name: 'Ada at Mock' },
      },
      error: null,
    })
    for (const answer of [access.data, refreshed.data, info.data]) expect(datesLeftAsText(answer)).toEqual([])

    // Another user's account is not this caller's to read.
    const other = createAuthClient<typeof server>({ baseURL: BASE, fetch: browser(server).fetch })
    await other.signUp.email({ name: 'Eve', email: email(), password: PASSWORD })
    expect((await other.accountInfo({ accountId: 'mock-ada' })).error?.status).toBeGreaterThanOrEqual(400)
    expect((await other.getAccessToken({ providerId: 'mock' })).error?.status).toBeGreaterThanOrEqual(400)
  })
})
