/**
 * @module
 * What the browser tests stand on: the example server started exactly as a
 * black-box harness starts it (`node examples/server/dist/main.js` with its
 * environment), the MAIL_LOG and SMS_LOG it writes, and Debian's Chromium driven by
 * playwright-core. Nothing is downloaded: the browser is the system's.
 *
 * The framework examples (examples/express, examples/hono, examples/nextjs)
 * start as their `start` scripts do (`startFrameworkExample`), on
 * `browserSuiteOn`.
 *
 * The suite needs a build (`pnpm build`: the server's dist and the React
 * app's dist) and a Chromium; `prerequisites()` says which is missing, so
 * `pnpm test` can skip with the reason instead of failing.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

const SERVER = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const APP = fileURLToPath(new URL('../../react-app/dist/index.html', import.meta.url))
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots', import.meta.url))

/** The Chromium to drive: GATEHOUSE_E2E_CHROMIUM, else Debian's. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.GATEHOUSE_E2E_CHROMIUM, '/usr/bin/chromium']
  return candidates.find((path): path is string => typeof path === 'string' && path !== '' && existsSync(path))
}

/** Why the suite cannot run here, or null when it can. */
export function prerequisites(): string | null {
  if (!chromiumPath()) return 'no Chromium (apt-get install chromium, or set GATEHOUSE_E2E_CHROMIUM)'
  if (!existsSync(SERVER)) return 'the example server is not built (pnpm build)'
  if (!existsSync(APP)) return 'the React app is not built (pnpm build)'
  return null
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

export interface Mail {
  readonly type: string
  readonly to: string
  readonly subject: string
  readonly url: string
  readonly token?: string
  readonly invitationId?: string
  /** `two-factor` and `email-otp` mails: the code. */
  readonly otp?: string
  /** `email-otp` mails: what the code is for (`sign-in`, `email-verification`, `forget-password`, `change-email`). */
  readonly otpType?: string
}

/** A line of SMS_LOG: a text message of the phone-number plugin (examples/server/README.md). */
export interface TextMessage {
  readonly to: string
  readonly code: string
  readonly type: 'verification' | 'password-reset'
}

/** The billing webhook secret the server is started with (Standard Webhooks form). */
export const WEBHOOK_SECRET = `whsec_${Buffer.from('e2e-billing-webhook-secret-32-b!').toString('base64')}`

export interface ExampleServer {
  readonly url: string
  /** Lines of WEBHOOK_LOG: the billing events the server applied. */
  webhooks(): Promise<Array<{ id: string; type: string }>>
  /** Every mail sent so far, oldest first. */
  mails(): Promise<Mail[]>
  /** The newest mail of `type` to `to`, waiting briefly for it to be written. */
  mailTo(to: string, type: string): Promise<Mail>
  /** Every text message sent so far, oldest first. */
  texts(): Promise<TextMessage[]>
  /** The newest text message of `type` to the number `to` (E.164), waiting briefly for it to be written. */
  smsTo(to: string, type: TextMessage['type']): Promise<TextMessage>
  stop(): Promise<void>
}

/**
 * @example
 * const server = await startExampleServer({ env: { SOCIAL_OIDC_ISSUER: issuer, SOCIAL_OIDC_CLIENT_ID: 'app' } })
 * await page.goto(server.url)
 */
export async function startExampleServer(
  // A function when a value is known only once the suite runs (a mock's port, started in an earlier beforeAll).
  options: {
    readonly env?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>)
    /** The host name of BASE_URL (the server listens on 127.0.0.1 either way): `localhost` for WebAuthn, which refuses IP addresses. */
    readonly host?: string
  } = {},
): Promise<ExampleServer> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'))
  const port = await freePort()
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`
  const mailLog = join(dir, 'mail.jsonl')
  const smsLog = join(dir, 'sms.jsonl')
  const webhookLog = join(dir, 'webhooks.jsonl')
  const child = await spawnUntilReady(SERVER, {
    PORT: String(port),
    BASE_URL: url,
    DATABASE_PATH: join(dir, 'gatehouse.db'),
    MAIL_LOG: mailLog,
    SMS_LOG: smsLog,
    WEBHOOK_LOG: webhookLog,
    BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RATE_LIMIT: '0',
    AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
    // More of the server's variables (a social provider's, say).
    ...(typeof options.env === 'function' ? options.env() : options.env),
  })

  const lines = async <T>(file: string): Promise<T[]> => {
    const text = await readFile(file, 'utf8').catch(() => '')
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as T)
  }
  const mails = () => lines<Mail>(mailLog)
  const texts = () => lines<TextMessage>(smsLog)
  return {
    url,
    mails,
    texts,
    webhooks: () => lines(webhookLog),
    async mailTo(to, type) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const found = (await mails()).filter((mail) => mail.to === to && mail.type === type).at(-1)
        if (found) return found
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`no ${type} mail to ${to}; the log has: ${JSON.stringify(await mails())}`)
    },
    async smsTo(to, type) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const found = (await texts()).filter((text) => text.to === to && text.type === type).at(-1)
        if (found) return found
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`no ${type} text to ${to}; the log has: ${JSON.stringify(await texts())}`)
    },
    async stop() {
      await child.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

interface ReadyProcess {
  /** Everything it printed so far, stdout and stderr. */
  output(): string
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>
}

/** Runs `node <entry> ...args` (in `cwd`) with only PATH and `env` for environment, and waits for its `ready on` line. */
async function spawnUntilReady(
  entry: string,
  env: Readonly<Record<string, string>>,
  options: { readonly cwd?: string; readonly args?: readonly string[] } = {},
): Promise<ReadyProcess> {
  const child: ChildProcess = spawn(process.execPath, [entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const check = () => output.includes('ready on') && resolve()
    child.stdout?.on('data', check)
    void exited.then(() => reject(new Error(`${entry} exited before it was ready:\n${output}`)))
  })
  return {
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}

export type FrameworkName = 'express' | 'hono' | 'nextjs'

/** A framework example (examples/express, examples/hono, examples/nextjs) as its README starts it. */
export interface FrameworkExample {
  /** Where the browser opens the pages: the API's origin, or the separate front end's (Hono). */
  readonly url: string
  /** Where the API answers (the same as `url` unless the front end has its own origin). */
  readonly apiUrl: string
  /** What it printed: the console mails, the billing events. */
  output(): string
  stop(): Promise<void>
}

interface Launch {
  /** What `build` makes, relative to the example's folder: its absence means "not built". */
  readonly built: string
  /** The script node runs, relative to the example's folder. */
  readonly entry: string
  readonly args: (port: number) => readonly string[]
  readonly env?: Readonly<Record<string, string>>
}

/**
 * Each example's `start` script as node runs it: its own dist/main.js, or
 * `next start` on the built .next (its instrumentation hook prints `ready on`
 * once the migrations ran, before Next.js answers a request).
 */
const LAUNCH: Readonly<Record<FrameworkName, Launch>> = {
  express: { built: 'dist/main.js', entry: 'dist/main.js', args: () => [] },
  hono: { built: 'dist/main.js', entry: 'dist/main.js', args: () => [] },
  nextjs: {
    built: '.next/BUILD_ID',
    entry: 'node_modules/next/dist/bin/next',
    args: (port) => ['start', '--hostname', '127.0.0.1', '--port', String(port)],
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  },
}

/** The example's folder in this repository. */
function exampleDir(name: FrameworkName): string {
  return fileURLToPath(new URL(`../../${name}`, import.meta.url))
}

/** Why `examples/<name>` cannot run here, or null when it can. */
export function frameworkPrerequisites(name: FrameworkName): string | null {
  if (!chromiumPath()) return 'no Chromium (apt-get install chromium, or set GATEHOUSE_E2E_CHROMIUM)'
  if (!existsSync(join(exampleDir(name), LAUNCH[name].built))) return `examples/${name} is not built (pnpm build)`
  return null
}

/**
 * The example's `start` in its folder (its working directory, as
 * `pnpm --dir examples/<name> start` runs it) on free ports, with its SQLite
 * file in a temporary folder. `webPort`: the example serves its front end on
 * a second port (WEB_PORT), and `url` is that origin. `dir`: a copy of the
 * example elsewhere (installed from the packed packages), built.
 *
 * @example
 * const hono = await startFrameworkExample('hono', { webPort: true })
 */
export async function startFrameworkExample(
  name: FrameworkName,
  options: { readonly webPort?: boolean; readonly env?: Readonly<Record<string, string>>; readonly dir?: string } = {},
): Promise<FrameworkExample> {
  const launch = LAUNCH[name]
  const cwd = options.dir ?? exampleDir(name)
  const dir = await mkdtemp(join(tmpdir(), `gatehouse-e2e-${name}-`))
  const port = await freePort()
  const webPort = options.webPort ? await freePort() : undefined
  const apiUrl = `http://127.0.0.1:${port}`
  const child = await spawnUntilReady(
    join(cwd, launch.entry),
    {
      PORT: String(port),
      BASE_URL: apiUrl,
      ...(webPort === undefined ? {} : { WEB_PORT: String(webPort) }),
      DATABASE_PATH: join(dir, 'gatehouse.db'),
      AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
      ...launch.env,
      ...options.env,
    },
    { cwd, args: launch.args(port) },
  )
  return {
    url: webPort === undefined ? apiUrl : `http://127.0.0.1:${webPort}`,
    apiUrl,
    output: () => child.output(),
    async stop() {
      await child.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Debian's Chromium, headless; `--no-sandbox` because CI runs as root. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw new Error('no Chromium')
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

/** Runs a step; on failure saves a full-page screenshot named after it under e2e/screenshots and rethrows. */
export async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    await mkdir(SCREENSHOTS, { recursive: true })
    const file = join(SCREENSHOTS, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`)
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined)
    throw new Error(`step "${name}" failed (screenshot: ${file}): ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

export interface BrowserSuite<S extends { readonly url: string } = ExampleServer> {
  /** The running example server (only inside tests: it starts in beforeAll). */
  readonly server: S
  /** A page in a fresh browser context (its own cookies) on the server's origin. */
  newPage(): Promise<Page>
}

/**
 * Call inside a describe block: starts the example server and the browser
 * before its tests and closes every context, the browser and the server after.
 */
export function browserSuite(options: Parameters<typeof startExampleServer>[0] = {}): BrowserSuite {
  return browserSuiteOn(() => startExampleServer(options))
}

/**
 * browserSuite on any server `start` makes: pages open on its `url`.
 *
 * @example
 * const suite = browserSuiteOn(() => startFrameworkExample('express'))
 */
export function browserSuiteOn<S extends { readonly url: string; stop(): Promise<void> }>(start: () => Promise<S>): BrowserSuite<S> {
  let server: S | undefined
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    server = await start()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
    await browser?.close()
    await server?.stop()
  })
  return {
    get server(): S {
      if (!server) throw new Error('the example server is not started')
      return server
    },
    newPage: async () => {
      if (!browser || !server) throw new Error('the browser is not started')
      const context = await browser.newContext({ baseURL: server.url })
      contexts.push(context)
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      return page
    },
  }
}

/** Fills and submits the app's sign-up form (at `path`, which may carry a query). */
export async function submitSignUp(page: Page, name: string, email: string, password: string, path = '/sign-up'): Promise<void> {
  await page.goto(path)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign up' }).click()
}
