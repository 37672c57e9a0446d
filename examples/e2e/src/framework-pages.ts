/**
 * @module
 * The steps the framework examples' pages share (examples/express and
 * examples/hono serve the same four plain HTML pages): sign up, sign in and
 * the account page, as a user does them, and the rate-limit suite both run.
 */
import type { Page, Response } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuiteOn, step, submitSignUp, type FrameworkExample } from './harness.js'

/** Fills and submits the sign-in form; answers the sign-in response the page got. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<Response> {
  if (!new URL(page.url()).pathname.startsWith('/sign-in')) await page.goto('/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === '/api/auth/sign-in/email'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ])
  return response
}

/** Waits for the protected account page to show who is signed in. */
export async function accountPage(page: Page, name: string, email: string): Promise<void> {
  await page.getByText(`Signed in as ${name} <${email}>`).waitFor()
  await page.waitForURL((url) => url.pathname === '/')
}

/** Waits for the sign-in page. */
export async function signInPage(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor()
  await page.waitForURL((url) => url.pathname === '/sign-in')
}

/**
 * A sign-in with a wrong password sent with an `X-Forwarded-For` of the
 * client's own choosing (a fresh address each time), from the front end's
 * origin: what a password guesser does to look like many clients.
 */
export async function spoofedSignIn(apiUrl: string, origin: string, email: string, attempt: number): Promise<number> {
  const response = await fetch(`${apiUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${attempt + 1}` },
    body: JSON.stringify({ email, password: `wrong password ${attempt}` }),
  })
  return response.status
}

/** The link of the newest mail to `to` with `subject` that the example printed to its console. */
export function printedLink(output: string, to: string, subject: string): string {
  const links = [...output.matchAll(/\[mail\] to (\S+): ([^\n]+)\n\s+(\S+)/g)].filter(([, address, title]) => address === to && title === subject)
  const link = links.at(-1)?.[3]
  if (!link) throw new Error(`no "${subject}" mail to ${to} in the output:\n${output}`)
  return link
}

/**
 * The rate-limit suite both framework examples run, on a server of its own:
 * four wrong passwords from one browser, the fourth refused with 429, and a
 * client writing its own X-Forwarded-For still counted under its socket's
 * address (the example hands Gatehouse the connection's address).
 */
export function describeRateLimits(name: 'express' | 'hono', start: () => Promise<FrameworkExample>, missing: string | null): void {
  describe.skipIf(missing !== null)(`examples/${name} rate limits${missing ? ` (skipped: ${missing})` : ''}`, () => {
    const suite = browserSuiteOn(start)

    it('answers the fourth wrong password within 10 s with 429', async () => {
      const page = await suite.newPage()
      await step(page, `${name}-sign-up-for-rate-limit`, async () => {
        await submitSignUp(page, 'Grace Hopper', 'grace@example.com', PASSWORD)
        await accountPage(page, 'Grace Hopper', 'grace@example.com')
      })
      const guesser = await suite.newPage()
      await step(guesser, `${name}-four-wrong-passwords`, async () => {
        await guesser.goto('/sign-in')
        const statuses: number[] = []
        for (let attempt = 0; attempt < 4; attempt++) statuses.push((await submitSignIn(guesser, 'grace@example.com', `wrong password ${attempt}`)).status())
        expect(statuses).toEqual([401, 401, 401, 429])
        await guesser.getByRole('alert').filter({ hasText: 'Too many requests. Please try again later.' }).waitFor()
      })
    })

    it('counts a client under its socket address whatever X-Forwarded-For it writes', async () => {
      // The same 10 s window as the browser's guesses above, from the same address: a header of the client's own
      // choosing would make each attempt a fresh client if the example did not hand Gatehouse the socket's address.
      const statuses: number[] = []
      for (let attempt = 0; attempt < 4; attempt++) statuses.push(await spoofedSignIn(suite.server.apiUrl, suite.server.url, 'grace@example.com', attempt))
      expect(statuses).toEqual([429, 429, 429, 429])
    })
  })
}

const PASSWORD = 'correct horse battery'
