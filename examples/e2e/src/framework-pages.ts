/**
 * @module
 * The steps the framework examples' pages share (examples/express and
 * examples/hono serve the same four plain HTML pages, examples/nextjs the
 * same forms from React): sign up, sign in and the account page, as a user
 * does them, the account flow and the rate-limit suite all of them run.
 */
import type { Page, Response } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuiteOn, step, submitSignUp, type FrameworkExample, type FrameworkName } from './harness.js'

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

/** Waits for the protected account page (at `path`: `/dashboard` on Next.js) to show who is signed in. */
export async function accountPage(page: Page, name: string, email: string, path = '/'): Promise<void> {
  await page.getByText(`Signed in as ${name} <${email}>`).waitFor()
  await page.waitForURL((url) => url.pathname === path)
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

/** Where each example's protected account page is. */
export const ACCOUNT_PATH: Readonly<Record<FrameworkName, string>> = { express: '/', hono: '/', nextjs: '/dashboard' }

/**
 * The account flow every framework example passes, as a user clicks it: the
 * protected page sends a stranger to sign-in; sign up lands on it; sign out
 * (the button named exactly "Sign out") leads back to sign-in, and the
 * protected page stays closed; sign in opens it again.
 *
 * @example
 * await accountFlow(await suite.newPage(), 'express', { name: 'Ada Lovelace', email: 'ada@example.com', password })
 */
export async function accountFlow(page: Page, name: FrameworkName, user: { readonly name: string; readonly email: string; readonly password: string }): Promise<void> {
  const path = ACCOUNT_PATH[name]
  await step(page, `${name}-protected-page-signed-out`, async () => {
    await page.goto(path)
    await signInPage(page)
  })
  await step(page, `${name}-sign-up`, async () => {
    await submitSignUp(page, user.name, user.email, user.password)
    await accountPage(page, user.name, user.email, path)
  })
  await step(page, `${name}-sign-out`, async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await signInPage(page)
    await page.goto(path)
    await signInPage(page)
  })
  await step(page, `${name}-sign-in`, async () => {
    expect((await submitSignIn(page, user.email, user.password)).status()).toBe(200)
    await accountPage(page, user.name, user.email, path)
  })
}

/**
 * Four wrong passwords from one browser page within 10 s: the first three
 * answer 401, the fourth 429 with the catalogue's message in the form's alert.
 */
export async function fourWrongPasswords(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in')
  const statuses: number[] = []
  for (let attempt = 0; attempt < 4; attempt++) statuses.push((await submitSignIn(page, email, `wrong password ${attempt}`)).status())
  expect(statuses).toEqual([401, 401, 401, 429])
  await page.getByRole('alert').filter({ hasText: 'Too many requests. Please try again later.' }).waitFor()
}

/**
 * The rate-limit suite the framework examples run, on a server of its own:
 * four wrong passwords from one browser, the fourth refused with 429, and a
 * client writing its own X-Forwarded-For still counted under its socket's
 * address when the example hands Gatehouse the connection's address
 * (`socketAddress`: Express and Hono; a Next.js route handler has no socket,
 * examples/nextjs/README.md#client-addresses).
 */
export function describeRateLimits(name: FrameworkName, start: () => Promise<FrameworkExample>, missing: string | null, options: { readonly socketAddress?: boolean } = {}): void {
  describe.skipIf(missing !== null)(`examples/${name} rate limits${missing ? ` (skipped: ${missing})` : ''}`, () => {
    const suite = browserSuiteOn(start)

    it('answers the fourth wrong password within 10 s with 429', async () => {
      const page = await suite.newPage()
      await step(page, `${name}-sign-up-for-rate-limit`, async () => {
        await submitSignUp(page, 'Grace Hopper', 'grace@example.com', PASSWORD)
        await accountPage(page, 'Grace Hopper', 'grace@example.com', ACCOUNT_PATH[name])
      })
      const guesser = await suite.newPage()
      await step(guesser, `${name}-four-wrong-passwords`, () => fourWrongPasswords(guesser, 'grace@example.com'))
    })

    it.skipIf(options.socketAddress === false)('counts a client under its socket address whatever X-Forwarded-For it writes', async () => {
      // The same 10 s window as the browser's guesses above, from the same address: a header of the client's own
      // choosing would make each attempt a fresh client if the example did not hand Gatehouse the socket's address.
      const statuses: number[] = []
      for (let attempt = 0; attempt < 4; attempt++) statuses.push(await spoofedSignIn(suite.server.apiUrl, suite.server.url, 'grace@example.com', attempt))
      expect(statuses).toEqual([429, 429, 429, 429])
    })
  })
}

const PASSWORD = 'correct horse battery'
