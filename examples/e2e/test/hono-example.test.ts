/**
 * examples/hono in Chromium, started as its README says (`node dist/main.js`):
 * the front end on its own origin calls the API on another with the session
 * cookie, allowed by Hono's cors middleware and Gatehouse's trustedOrigins.
 * Sign up, the protected page and `GET /api/me`, sign out and back to
 * sign-in, sign in again; an untrusted origin refused; and four wrong
 * passwords from one browser, the fourth refused with 429 because the
 * handler is given the socket's address.
 */
import { describe, expect, it } from 'vitest'
import { accountPage, describeRateLimits, printedLink, signInPage, spoofedSignIn, submitSignIn } from '../src/framework-pages.js'
import { browserSuiteOn, frameworkPrerequisites, startFrameworkExample, step, submitSignUp } from '../src/harness.js'

const missing = frameworkPrerequisites('hono')
if (missing) console.info(`[e2e] hono example skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

describe.skipIf(missing !== null)(`examples/hono${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuiteOn(() => startFrameworkExample('hono', { webPort: true }))

  it('signs up across origins, opens the protected page, signs out, is sent back to sign-in, signs in', async () => {
    expect(new URL(suite.server.url).origin).not.toBe(new URL(suite.server.apiUrl).origin)
    const page = await suite.newPage()
    const apiCalls: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/')) apiCalls.push(new URL(request.url()).origin)
    })
    await step(page, 'hono-protected-page-signed-out', async () => {
      await page.goto('/')
      await signInPage(page)
    })
    await step(page, 'hono-sign-up', async () => {
      await submitSignUp(page, 'Ada Lovelace', 'ada@example.com', PASSWORD)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
    })
    await step(page, 'hono-api-me', async () => {
      // The page's own fetch went to the API's origin, and the browser let it read the answer (CORS with credentials).
      expect(new Set(apiCalls)).toEqual(new Set([new URL(suite.server.apiUrl).origin]))
      const me = await page.request.get(`${suite.server.apiUrl}/api/me`)
      expect(me.status()).toBe(200)
      expect(await me.json()).toMatchObject({ user: { name: 'Ada Lovelace', email: 'ada@example.com' } })
    })
    await step(page, 'hono-verify-email', async () => {
      // There is no mail server: the verification link is printed to the console, and opening it leads back to the pages.
      const link = printedLink(suite.server.output(), 'ada@example.com', 'Verify your email address')
      expect(new URL(link).searchParams.get('callbackURL')).toBe(`${new URL(suite.server.url).origin}/`)
      await page.goto(link)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
      expect(await (await page.request.get(`${suite.server.apiUrl}/api/me`)).json()).toMatchObject({ user: { emailVerified: true } })
    })
    await step(page, 'hono-sign-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await signInPage(page)
      expect((await page.request.get(`${suite.server.apiUrl}/api/me`)).status()).toBe(401)
      await page.goto('/')
      await signInPage(page)
    })
    await step(page, 'hono-sign-in', async () => {
      expect((await submitSignIn(page, 'ada@example.com', PASSWORD)).status()).toBe(200)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
    })
  })

  it('answers the front end with its exact origin and credentials, and refuses an untrusted origin', async () => {
    const preflight = await fetch(`${suite.server.apiUrl}/api/auth/sign-in/email`, {
      method: 'OPTIONS',
      headers: { origin: suite.server.url, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBe(suite.server.url)
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
    // Not in trustedOrigins: Gatehouse refuses it before looking at the password (login CSRF).
    const foreign = await fetch(`${suite.server.apiUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:9', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: PASSWORD }),
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ code: 'INVALID_ORIGIN' })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  })
})

// A server of its own: every browser here is 127.0.0.1, and the sign-in above would count against the same budget.
describeRateLimits('hono', () => startFrameworkExample('hono', { webPort: true }), missing)
