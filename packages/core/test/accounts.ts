/**
 * Account fixtures for route tests: an auth with email and password on, a
 * mailbox capturing every mail callback, and sign-up/sign-in shorthands that
 * return the Cookie header a browser would send next.
 */
import type { GatehouseOptions } from '../src/options.js'
import { defaultPasswordHasher } from '../src/password/index.js'
import type { GatehousePlugin } from '../src/plugins/types.js'
import { BASE, request, testAuth } from './helpers.js'

export interface Mail {
  readonly kind: 'verify-email' | 'reset-password' | 'change-email' | 'delete-account'
  readonly to: string
  readonly url: string
  readonly token: string
  readonly newEmail?: string
}

export function mailbox() {
  const mails: Mail[] = []
  return {
    mails,
    last: (kind?: Mail['kind']) => [...mails].reverse().find((mail) => kind === undefined || mail.kind === kind),
    options: {
      emailVerification: {
        sendVerificationEmail: ({ user, url, token }: { user: { email: string }; url: string; token: string }) => {
          mails.push({ kind: 'verify-email', to: user.email, url, token })
        },
      },
      emailAndPassword: {
        enabled: true,
        sendResetPassword: ({ user, url, token }: { user: { email: string }; url: string; token: string }) => {
          mails.push({ kind: 'reset-password', to: user.email, url, token })
        },
      },
    },
  }
}

type Options = Omit<Partial<GatehouseOptions>, 'plugins'>

/** An auth with email and password on, rate limits off, and a mailbox. */
export function accountAuth<const P extends readonly GatehousePlugin[] = []>(options: Options & { plugins?: P } = {}) {
  const box = mailbox()
  const auth = testAuth({
    rateLimit: { enabled: false },
    ...options,
    emailAndPassword: { ...box.options.emailAndPassword, ...options.emailAndPassword },
    emailVerification: { ...box.options.emailVerification, ...options.emailVerification },
  })
  return Object.assign(auth, { mailbox: box })
}

/** The Cookie header for the cookies a response sets (dropping cleared ones). */
export function cookieHeader(response: Response, previous = ''): string {
  const jar = new Map<string, string>()
  for (const pair of previous.split('; ').filter(Boolean)) {
    const index = pair.indexOf('=')
    jar.set(pair.slice(0, index), pair.slice(index + 1))
  }
  for (const line of response.headers.getSetCookie()) {
    const first = line.split(';')[0] as string
    const index = first.indexOf('=')
    const name = first.slice(0, index)
    const value = first.slice(index + 1)
    if (/max-age=0/i.test(line) || value === '') jar.delete(name)
    else jar.set(name, value)
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}

/** What a browser keeps of an answer: status, JSON body, the Cookie header it sends next, the Set-Cookie lines. */
export interface BrowserAnswer {
  readonly status: number
  // JSON of whatever shape the route answers: tests read its fields directly.
  readonly body: any
  readonly cookie: string
  readonly setCookies: string[]
}

/** `response` as a browser holding `previousCookie` sees it. */
export async function browserAnswer(response: Response, previousCookie = ''): Promise<BrowserAnswer> {
  const text = await response.text()
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    cookie: cookieHeader(response, previousCookie),
    setCookies: response.headers.getSetCookie(),
  }
}

export const PASSWORD = 'correct horse battery'

/**
 * Just under the 1 MiB body cap as JSON: U+FDFA is 3 bytes of UTF-8 and NFKC
 * expands it 18-fold (docs/passwords.md#bounded-input).
 */
export const HUGE_PASSWORD = '\uFDFA'.repeat(349_000)

/**
 * The default hasher, recording the length of every password handed to it:
 * `emailAndPassword.password` for an auth whose tests assert what reaches hashing.
 */
export function recordingHasher() {
  const lengths: number[] = []
  return {
    lengths,
    password: {
      hash: (password: string) => {
        lengths.push(password.length)
        return defaultPasswordHasher.hash(password)
      },
      verify: (args: { hash: string; password: string }) => {
        lengths.push(args.password.length)
        return defaultPasswordHasher.verify(args)
      },
    },
  }
}

export async function signUp(
  auth: { handler(request: Request): Promise<Response> },
  fields: { email: string; password?: string; name?: string; [extra: string]: unknown },
) {
  const response = await auth.handler(
    request('/api/auth/sign-up/email', {
      json: { name: 'Test User', password: PASSWORD, ...fields },
      headers: { origin: BASE },
    }),
  )
  const body = await response.clone().json()
  return { response, body, cookie: cookieHeader(response) }
}

export async function signIn(
  auth: { handler(request: Request): Promise<Response> },
  fields: { email: string; password?: string; rememberMe?: boolean },
) {
  const response = await auth.handler(
    request('/api/auth/sign-in/email', { json: { password: PASSWORD, ...fields }, headers: { origin: BASE } }),
  )
  const body = await response.clone().json()
  return { response, body, cookie: cookieHeader(response) }
}

/** A request carrying cookies, from the app's own origin (passes the origin check). */
export function authed(path: string, cookie: string, init: RequestInit & { json?: unknown } = {}): Request {
  return request(path, { ...init, headers: { origin: BASE, cookie, ...(init.headers as Record<string, string>) } })
}
