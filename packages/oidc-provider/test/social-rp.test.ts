/**
 * One Gatehouse server signs its users in through another: the provider runs
 * this plugin over real HTTP on 127.0.0.1, the relying party is core's
 * generic OpenID Connect social provider (discovery, PKCE S256, state,
 * nonce, ID Token checks, UserInfo), in-process. The browser is core's
 * social-test browser: cookies per host, redirects followed by hand. It lives
 * here rather than in core's tests so that core never imports this plugin.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { toNodeHandler } from '@gatehouse/core/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { Browser, startSocial } from '../../core/test/social-fixtures.js'
import { oidcProvider } from '../src/index.js'

const PASSWORD = 'correct horse battery'
const CLIENT = { id: 'relying-app', secret: 'relying-app-secret-0123456789-abcdefghij' }
const RP_AUTH = `${BASE}/api/auth`

let server: Server
let opOrigin: string
let issuer: string
let op: ReturnType<typeof providerAuth>

function providerAuth(origin: string) {
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
          {
            clientId: CLIENT.id,
            clientSecret: CLIENT.secret,
            name: 'Relying app',
            redirectURLs: [`${RP_AUTH}/callback/gatehouse`],
            type: 'web',
            skipConsent: true,
          },
        ],
      }),
    ],
  })
}

function relyingParty() {
  return createAuth({
    baseURL: BASE,
    secret: 'gatehouse-rp-secret-0123456789-abcdefghij',
    database: memoryAdapter(),
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    socialProviders: {
      gatehouse: { type: 'oidc', name: 'Gatehouse ID', issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret },
    },
  })
}

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  opOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  issuer = `${opOrigin}/api/auth`
  op = providerAuth(opOrigin)
  const handle = toNodeHandler(op)
  server.on('request', (req, res) => void handle(req, res))
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** Signs up at the provider in `browser` (its session cookie stays in the jar for the provider's host). */
async function signUpAtProvider(browser: Browser, name: string, email: string): Promise<string> {
  const response = await browser.request(`${issuer}/sign-up/email`, { json: { name, email, password: PASSWORD }, headers: { origin: opOrigin } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { user: { id: string } }).user.id
}

describe('Gatehouse signs in through another Gatehouse server running the oidc-provider plugin', () => {
  it('signs up, signs in again, and reads tokens and the profile from the provider', async () => {
    const rp = relyingParty()
    const browser = new Browser(rp)
    const opUserId = await signUpAtProvider(browser, 'Ada Lovelace', 'ada@provider.test')
    // The relying party creates users only under addresses the provider vouches for (docs/social.md#which-providers-vouch-for-the-address).
    await (await op.$context).db.update({ model: 'user', where: { field: 'id', value: opUserId }, update: { emailVerified: true } })

    const start = await startSocial(browser, { provider: 'gatehouse', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' })
    expect(start.response.status).toBe(200)
    const authorize = new URL(start.body.url as string)
    expect(authorize.origin + authorize.pathname).toBe(`${issuer}/oauth2/authorize`)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('nonce')).toMatch(/.{16,}/)
    expect(authorize.searchParams.get('scope')).toBe('openid profile email')

    // Signed in at the provider and a trusted client: no login page, no consent, straight back.
    const first = await browser.navigate(start.body.url as string)
    expect(first.location).toBe(`${BASE}/welcome`)
    expect(first.visited.some((url) => url.startsWith(`${RP_AUTH}/callback/gatehouse?`))).toBe(true)

    const session = (await (await browser.request(`${RP_AUTH}/get-session`)).json()) as { user: { id: string; email: string; name: string; emailVerified: boolean } }
    expect(session.user).toMatchObject({ email: 'ada@provider.test', name: 'Ada Lovelace', emailVerified: true })
    const context = await rp.$context
    const accounts = await context.adapter.findMany<{ providerId: string; accountId: string; userId: string; accessToken: string | null }>({ model: 'account' })
    expect(accounts.map((account) => [account.providerId, account.accountId, account.userId])).toEqual([['gatehouse', opUserId, session.user.id]])
    // Stored encrypted, never the provider's token itself.
    expect(accounts[0]?.accessToken).toMatch(/^v1\./)

    // The same person again: the existing account signs in, no second user.
    await browser.request(`${RP_AUTH}/sign-out`, { method: 'POST', headers: { origin: BASE } })
    const again = await startSocial(browser, { provider: 'gatehouse', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' })
    expect((await browser.navigate(again.body.url as string)).location).toBe(`${BASE}/dashboard`)
    expect(await context.adapter.count({ model: 'user' })).toBe(1)

    // The provider's access token works at its UserInfo endpoint, through the relying party.
    const access = await browser.request(`${RP_AUTH}/get-access-token`, { json: { providerId: 'gatehouse' }, headers: { origin: BASE } })
    expect(access.status).toBe(200)
    const token = ((await access.json()) as { accessToken: string }).accessToken
    const userinfo = await fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } })
    expect(userinfo.status).toBe(200)
    expect(await userinfo.json()).toMatchObject({ sub: opUserId, email: 'ada@provider.test' })
    const info = await browser.request(`${RP_AUTH}/account-info`, { json: { accountId: opUserId }, headers: { origin: BASE } })
    expect(info.status).toBe(200)
    expect(((await info.json()) as { user: unknown }).user).toEqual({
      id: opUserId,
      name: 'Ada Lovelace',
      email: 'ada@provider.test',
      image: null,
      emailVerified: true,
    })
  })

  it('sends an unknown person to the provider login page, and a refusal back as an error', async () => {
    const rp = relyingParty()
    const browser = new Browser(rp)
    const start = await startSocial(browser, { provider: 'gatehouse', callbackURL: '/dashboard', errorCallbackURL: '/sign-in' })
    const { visited } = await browser.navigate(start.body.url as string)
    // Not signed in at the provider: its login page (an app page), which resumes the authorization after sign-in.
    expect(visited.at(-1)?.startsWith(`${opOrigin}/login`)).toBe(true)
    expect(visited.some((url) => url.startsWith(`${RP_AUTH}/callback/`))).toBe(false)
    expect(await (await rp.$context).adapter.count({ model: 'user' })).toBe(0)

    // A forged callback (state from nowhere) ends on the error page, not signed in.
    const forged = await browser.navigate(`${RP_AUTH}/callback/gatehouse?code=stolen&state=${'x'.repeat(32)}&iss=${encodeURIComponent(issuer)}`)
    expect(forged.location ?? forged.visited.at(-1)).toMatch(/error=/)
    expect(await (await browser.request(`${RP_AUTH}/get-session`)).json()).toBeNull()
  })
})
