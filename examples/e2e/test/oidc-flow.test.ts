/**
 * The example server as an OpenID Provider, in a real browser (Debian's
 * Chromium): a relying party (a small node:http app in this test, speaking
 * OpenID Connect through openid-client, on its own loopback port) sends the
 * user to authorize; the app's /login page signs them in and resumes; the
 * /consent page names the client and the scopes as GET /oauth2/consent answers
 * them for its consent_id (a URL naming another client or other scopes
 * changes nothing, and without consent_id nothing is shown), marking the
 * self-registered client unverified; Allow sends the browser back
 * to the relying party, which redeems the code (PKCE S256, client_secret_basic)
 * and shows who signed in from the ID Token. A newcomer creates an account
 * from the login page, continues, and denies: the relying party hears
 * access_denied. The profile's "Connected apps" lists the client, and Revoke
 * ends its grant (the next authorization asks for consent again). The client is registered the way
 * the example allows: POST /oauth2/register with a signed-in user's session.
 * A failing step leaves a screenshot in examples/e2e/screenshots/.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oidc from 'openid-client'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, prerequisites, startExampleServer, step, type ExampleServer } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] OIDC browser test skipped: ${missing}`)

const PASSWORD = 'correct horse battery'
const CLIENT_NAME = 'Difference Engine Notes'

/** The relying party: `/` links to `/start`, which redirects to authorize; `/callback` redeems the code. */
interface RelyingParty {
  readonly url: string
  /** Plugged in once the client is registered (the registration needs the callback URL first). */
  configure(config: oidc.Configuration): void
  /** Callback failures, so the test can name them instead of a blank page. */
  readonly failures: string[]
  stop(): Promise<void>
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

async function startRelyingParty(): Promise<RelyingParty> {
  let config: oidc.Configuration | undefined
  // One user at a time in this test: the pending request lives here rather than in a cookie.
  let pending: { verifier: string; state: string; nonce: string } | undefined
  const failures: string[] = []
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base)
      const html = (status: number, body: string) =>
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>RP</title><main>${body}</main>`)
      if (url.pathname === '/') return html(200, `<h1>${CLIENT_NAME}</h1><a href="/start">Sign in with Gatehouse</a>`)
      if (!config) return html(503, 'not configured')
      if (url.pathname === '/start') {
        const verifier = oidc.randomPKCECodeVerifier()
        pending = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce() }
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${base}/callback`,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: pending.state,
          nonce: pending.nonce,
        })
        res.writeHead(302, { location: target.href }).end()
        return
      }
      if (url.pathname === '/callback' && url.searchParams.has('error')) {
        // An error response still carries the state; a mismatch would be someone else's redirect.
        const expected = pending?.state
        pending = undefined
        if (url.searchParams.get('state') !== expected) return html(400, 'state mismatch')
        return html(200, `<h1>Not signed in</h1><p>error: ${escape(url.searchParams.get('error') ?? '')}</p>`)
      }
      if (url.pathname === '/callback' && pending) {
        const checks = { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true }
        pending = undefined
        const tokens = await oidc.authorizationCodeGrant(config, url, checks)
        const claims = tokens.claims()
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? '')
        return html(200, `<h1>Signed in</h1><p>sub: ${escape(String(claims?.sub))}</p><p>email: ${escape(String(info.email))}</p>`)
      }
      html(404, 'not found')
    })().catch((error: unknown) => {
      failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('relying party error')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    failures,
    configure(next) {
      config = next
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Signs a user up over the API and answers their session cookie, for registering the client. */
async function signUpCookie(server: ExampleServer, name: string, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name, email, password: PASSWORD }),
  })
  expect(response.status).toBe(200)
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

describe.skipIf(missing !== null)(`OIDC in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: ExampleServer
  let rp: RelyingParty
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    server = await startExampleServer()
    rp = await startRelyingParty()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
    await browser?.close()
    await rp?.stop()
    await server?.stop()
  })

  async function newPage(): Promise<Page> {
    const context = await browser.newContext()
    contexts.push(context)
    const page = await context.newPage()
    page.setDefaultTimeout(10_000)
    return page
  }

  it('relying party → login → consent → back with tokens; a newcomer signs up on the way and denies', async () => {
    // The developer registers the relying party while signed in (the example allows nothing else).
    const developer = await signUpCookie(server, 'Charles Babbage', 'charles@example.com')
    const registered = await fetch(`${server.url}/api/auth/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, cookie: developer },
      body: JSON.stringify({ client_name: CLIENT_NAME, redirect_uris: [`${rp.url}/callback`], token_endpoint_auth_method: 'client_secret_basic' }),
    })
    expect(registered.status).toBe(201)
    const client = (await registered.json()) as { client_id: string; client_secret: string }
    const config = await oidc.discovery(
      new URL(`${server.url}/api/auth`),
      client.client_id,
      { redirect_uris: [`${rp.url}/callback`] },
      oidc.ClientSecretBasic(client.client_secret),
      // The example runs on plain HTTP on loopback.
      { execute: [oidc.allowInsecureRequests] },
    )
    rp.configure(config)

    // The user already has an account on the provider, but is not signed in in this browser.
    await signUpCookie(server, 'Ada Lovelace', 'ada@example.com')
    const page = await newPage()
    await step(page, 'oidc-rp-sends-to-login', async () => {
      await page.goto(rp.url)
      await page.getByRole('link', { name: 'Sign in with Gatehouse' }).click()
      await page.waitForURL((url) => url.href.startsWith(`${server.url}/login`))
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    })
    await step(page, 'oidc-signs-in-and-resumes', async () => {
      await page.getByLabel('Email').fill('ada@example.com')
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL((url) => url.href.startsWith(`${server.url}/consent`))
    })
    await step(page, 'oidc-consent-page-reads-the-server', async () => {
      const shown = new URL(page.url())
      // Without consent_id the page shows nothing to approve, whatever client and scopes its URL names.
      await page.goto(`${server.url}/consent?client_id=${encodeURIComponent(client.client_id)}&scope=openid`)
      await page.getByRole('heading', { name: 'Nothing to approve' }).waitFor()
      // A URL that names another client and other scopes: the page still shows the pending request as the server holds it.
      const spoofed = new URL(shown)
      spoofed.searchParams.set('client_id', 'trusted-wiki')
      spoofed.searchParams.set('scope', 'openid offline_access')
      const loaded = page.waitForResponse((response) => response.url().startsWith(`${server.url}/api/auth/oauth2/consent?consent_id=`))
      await page.goto(spoofed.href)
      expect((await loaded).status()).toBe(200)
    })
    await step(page, 'oidc-consents', async () => {
      await page.getByRole('heading', { name: `${CLIENT_NAME} wants to access your account` }).waitFor()
      // Registered over HTTP by a signed-in developer: self-registered, so marked unverified.
      await page.getByText('Unverified application.').waitFor()
      await page.getByText('See your email address').waitFor()
      await page.getByText('See your name and picture').waitFor()
      expect(await page.getByText('Stay connected when you are not using it').count()).toBe(0)
      await page.getByRole('button', { name: 'Allow' }).click()
      await page.waitForURL((url) => url.href.startsWith(`${rp.url}/callback`))
    })
    await step(page, 'oidc-back-at-the-relying-party', async () => {
      await page.waitForLoadState()
      expect(rp.failures).toEqual([])
      await page.getByRole('heading', { name: 'Signed in' }).waitFor()
      const session = (await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: await cookieHeader(page, server.url) } })).json()) as {
        user: { id: string }
      }
      await page.getByText(`sub: ${session.user.id}`).waitFor()
      await page.getByText('email: ada@example.com').waitFor()
    })
    await step(page, 'oidc-connected-apps-revoke', async () => {
      // The profile lists the client Ada allowed; Revoke ends its grant, so the next authorization asks again.
      await page.goto(`${server.url}/profile`)
      const apps = page.locator('section', { has: page.getByRole('heading', { name: 'Connected apps' }) })
      await apps.getByText(CLIENT_NAME).waitFor()
      await apps.getByText('See your email address').waitFor()
      await apps.getByRole('button', { name: `Revoke ${CLIENT_NAME}` }).click()
      await apps.getByText('No application has access to your account.').waitFor()
      await page.goto(rp.url)
      await page.getByRole('link', { name: 'Sign in with Gatehouse' }).click()
      await page.waitForURL((url) => url.href.startsWith(`${server.url}/consent`))
      await page.getByRole('heading', { name: `${CLIENT_NAME} wants to access your account` }).waitFor()
    })

    // A newcomer: creates an account from the login page, continues, and denies.
    const grace = await newPage()
    await step(grace, 'oidc-newcomer-signs-up', async () => {
      await grace.goto(rp.url)
      await grace.getByRole('link', { name: 'Sign in with Gatehouse' }).click()
      await grace.waitForURL((url) => url.href.startsWith(`${server.url}/login`))
      await grace.getByRole('link', { name: 'Create an account' }).click()
      await grace.getByLabel('Name').fill('Grace Hopper')
      await grace.getByLabel('Email').fill('grace@example.com')
      await grace.getByLabel('Password').fill(PASSWORD)
      await grace.getByRole('button', { name: 'Sign up' }).click()
      await grace.getByRole('button', { name: 'Continue as grace@example.com' }).click()
      await grace.waitForURL((url) => url.href.startsWith(`${server.url}/consent`))
    })
    await step(grace, 'oidc-newcomer-denies', async () => {
      await grace.getByRole('heading', { name: `${CLIENT_NAME} wants to access your account` }).waitFor()
      await grace.getByRole('button', { name: 'Deny' }).click()
      await grace.waitForURL((url) => url.href.startsWith(`${rp.url}/callback`))
      await grace.getByRole('heading', { name: 'Not signed in' }).waitFor()
      await grace.getByText('error: access_denied').waitFor()
      expect(rp.failures).toEqual([])
    })
  })
})

/** The browser's cookies for `url`, as a Cookie header: to ask the provider who is signed in there. */
async function cookieHeader(page: Page, url: string): Promise<string> {
  const cookies = await page.context().cookies(url)
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}
