/**
 * Social sign-in in a real browser (Debian's Chromium): the example server
 * started with SOCIAL_OIDC_* pointing at a real OpenID Provider on loopback
 * (panva's oidc-provider, with a one-click sign-in page of its own); the
 * app's sign-in page shows "Continue with Loopback ID"; a click goes to the
 * provider, back through /api/auth/callback/oidc, and lands signed in. The
 * profile then lists the linked account, and a second sign-in finds the
 * same user. A provider sign-in whose email belongs to an unverified local
 * account is refused (account_not_linked) and the sign-in page says why.
 * A failing step leaves a screenshot in examples/e2e/screenshots/.
 */
import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type OidcProvider from '../../../packages/core/node_modules/@types/oidc-provider/index.js'
import { launchBrowser, prerequisites, startExampleServer, step, type ExampleServer } from '../src/harness.js'

/**
 * oidc-provider is a devDependency of @gatehouse/core (its social tests use it too); the browser
 * suite borrows that copy rather than installing a second one.
 */
const OIDC_PROVIDER_MODULE = new URL('../../../packages/core/node_modules/oidc-provider/lib/index.js', import.meta.url).href

const missing = prerequisites()
if (missing) console.info(`[e2e] social sign-in browser test skipped: ${missing}`)

const PROVIDER_NAME = 'Loopback ID'
const CLIENT = { id: 'gatehouse-example', secret: 'loopback-client-secret-0123456789abcdef' }
const ADA = { sub: 'ada-at-loopback', email: 'ada@loopback.test', email_verified: true, name: 'Ada Lovelace' }
const GRACE = { sub: 'grace-at-loopback', email: 'grace@loopback.test', email_verified: true, name: 'Grace Hopper' }
const PEOPLE = [ADA, GRACE]

interface LoopbackProvider {
  readonly issuer: string
  /** Builds the provider once the relying party's callback URL is known (the example server picks its port). */
  configure(redirectUri: string): Promise<void>
  /** How many times someone signed in on the provider's page. */
  readonly logins: { count: number }
  stop(): Promise<void>
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`

/** A real OpenID Provider on 127.0.0.1 whose sign-in page has one button per person. */
async function startLoopbackProvider(): Promise<LoopbackProvider> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const logins = { count: 0 }
  let provider: OidcProvider | undefined
  let listener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!provider || !listener) {
      res.writeHead(503).end()
      return
    }
    const op = provider
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '')
    if (!interaction) {
      listener(req, res)
      return
    }
    void (async () => {
      const details = await op.interactionDetails(req, res)
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end(
          page(
            PROVIDER_NAME,
            `<h1>${PROVIDER_NAME}</h1><p>Signing in to ${String(details.params.client_id)}</p>` +
              `<form method="post" action="/interaction/${details.uid}">` +
              PEOPLE.map((person) => `<button type="submit" name="account" value="${person.sub}">Sign in as ${person.name}</button>`).join('') +
              `</form>`,
          ),
        )
        return
      }
      let form = ''
      for await (const chunk of req) form += String(chunk)
      const person = PEOPLE.find((entry) => entry.sub === new URLSearchParams(form).get('account'))
      if (!person) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown account')
        return
      }
      logins.count += 1
      const grant = new op.Grant({ accountId: person.sub, clientId: String(details.params.client_id) })
      grant.addOIDCScope(String(details.params.scope))
      const grantId = await grant.save()
      await op.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false })
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    })
  })

  return {
    issuer,
    logins,
    async configure(redirectUri) {
      const { default: Provider } = (await import(OIDC_PROVIDER_MODULE)) as { default: typeof OidcProvider }
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT.id,
            client_secret: CLIENT.secret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'loopback-key', alg: 'RS256', use: 'sig' }] },
        cookies: { keys: ['loopback-provider-cookie-key-0123456789'] },
        ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, RefreshToken: 86400, Session: 3600 },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: async (_ctx, sub) => {
          const person = PEOPLE.find((entry) => entry.sub === sub)
          return person ? { accountId: sub, claims: async () => ({ ...person }) } : undefined
        },
      })
      // Its warnings about development settings are noise here.
      provider.on('server_error', () => undefined)
      // Koa's own method: @types/koa does not resolve from this package, so its shape is named here.
      listener = (provider as unknown as { callback(): (req: IncomingMessage, res: ServerResponse) => void }).callback()
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.skipIf(missing !== null)(`social sign-in in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let op: LoopbackProvider
  let server: ExampleServer
  let browser: Browser

  beforeAll(async () => {
    op = await startLoopbackProvider()
    server = await startExampleServer({
      env: {
        SOCIAL_OIDC_ISSUER: op.issuer,
        SOCIAL_OIDC_CLIENT_ID: CLIENT.id,
        SOCIAL_OIDC_CLIENT_SECRET: CLIENT.secret,
        SOCIAL_OIDC_NAME: PROVIDER_NAME,
      },
    })
    await op.configure(`${server.url}/api/auth/callback/oidc`)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await op?.stop()
  })

  async function newPage(): Promise<Page> {
    const context = await browser.newContext()
    const tab = await context.newPage()
    tab.setDefaultTimeout(10_000)
    return tab
  }

  it('"Continue with Loopback ID" → the provider → back signed in, the account linked', async () => {
    const tab = await newPage()
    await step(tab, 'social-button-shown', async () => {
      await tab.goto(`${server.url}/sign-in`)
      await tab.getByRole('heading', { name: 'Sign in' }).waitFor()
      await tab.getByRole('button', { name: `Continue with ${PROVIDER_NAME}` }).click()
      await tab.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`))
    })
    await step(tab, 'social-provider-sign-in', async () => {
      await tab.getByRole('heading', { name: PROVIDER_NAME }).waitFor()
      await tab.getByText(`Signing in to ${CLIENT.id}`).waitFor()
      await tab.getByRole('button', { name: `Sign in as ${ADA.name}` }).click()
      await tab.waitForURL((url) => url.origin === server.url && url.pathname === '/')
    })
    await step(tab, 'social-landed-signed-in', async () => {
      await tab.getByRole('heading', { name: `Hello, ${ADA.name}` }).waitFor()
      await tab.getByText(`Signed in as ${ADA.email} (verified).`).waitFor()
      expect(op.logins.count).toBe(1)
    })
    await step(tab, 'social-profile-lists-the-account', async () => {
      await tab.getByRole('link', { name: 'Profile' }).first().click()
      const accounts = tab.locator('section', { has: tab.getByRole('heading', { name: 'Linked accounts' }) })
      await accounts.getByText(PROVIDER_NAME).waitFor()
      await accounts.getByText(ADA.sub).waitFor()
      // The only sign-in method cannot be unlinked, so the page offers no button for it.
      expect(await accounts.getByRole('button', { name: /^Unlink/ }).count()).toBe(0)
    })
    await step(tab, 'social-second-sign-in-same-user', async () => {
      await tab.getByRole('button', { name: 'Sign out' }).click()
      await tab.getByRole('heading', { name: 'Welcome' }).waitFor()
      await tab.goto(`${server.url}/sign-in`)
      await tab.getByRole('button', { name: `Continue with ${PROVIDER_NAME}` }).click()
      // The provider remembers Ada: it may send her straight back, or ask again.
      await tab.waitForURL((url) => url.origin === server.url || url.href.startsWith(`${op.issuer}/interaction/`))
      if (tab.url().startsWith(op.issuer)) await tab.getByRole('button', { name: `Sign in as ${ADA.name}` }).click()
      await tab.getByRole('heading', { name: `Hello, ${ADA.name}` }).waitFor()
      const cookies = (await tab.context().cookies(server.url)).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
      const accounts = (await (await fetch(`${server.url}/api/auth/list-accounts`, { headers: { cookie: cookies } })).json()) as Array<{
        provider: string
        accountId: string
      }>
      expect(accounts.map((account) => [account.provider, account.accountId])).toEqual([['oidc', ADA.sub]])
    })
  })

  it('a provider that vouches for the address takes an unverified local account from whoever squatted it', async () => {
    // Someone signed up locally with Grace's address and never verified it: pre-account takeover
    // (docs/security.md#pre-registration-whoever-proves-the-mailbox-owns-the-account).
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ name: 'Not Grace', email: GRACE.email, password: 'correct horse battery' }),
    })
    expect(signUp.status).toBe(200)
    const squatter = signUp.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const sessionOf = async (cookie: string) => (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })).json()
    expect(await sessionOf(squatter)).toMatchObject({ user: { email: GRACE.email, emailVerified: false } })

    const tab = await newPage()
    await step(tab, 'social-proof-of-mailbox', async () => {
      await tab.goto(`${server.url}/sign-in`)
      await tab.getByRole('button', { name: `Continue with ${PROVIDER_NAME}` }).click()
      await tab.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`))
      await tab.getByRole('button', { name: `Sign in as ${GRACE.name}` }).click()
      await tab.waitForURL((url) => url.origin === server.url && url.pathname === '/')
      await tab.getByText(`Signed in as ${GRACE.email} (verified).`).waitFor()
    })
    // The squatter's session and password ended with the owner's proof.
    expect(await sessionOf(squatter)).toBeNull()
    const squatterSignIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: GRACE.email, password: 'correct horse battery' }),
    })
    expect(squatterSignIn.status).toBe(401)
  })
})
