/**
 * Fixtures for the last-login-method flows: an auth with the plugin on the
 * in-memory adapter, request shorthands returning status, body, Set-Cookie
 * lines and the next Cookie header, and small stand-in plugins for sign-in
 * routes whose packages do not exist here (anonymous, phone number, a
 * generic OAuth callback): each signs a user in as such a route would.
 */
import { completeFirstFactor, createSession, defineEndpoint, definePlugin, setSessionCookies, type GatehousePlugin, type Row, type Store, type User } from '@gatehouse/core'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { DEFAULT_LAST_LOGIN_METHOD_COOKIE } from '../src/defaults.js'
import type { LastLoginMethodOptions } from '../src/options.js'
import { lastLoginMethod } from '../src/plugin.js'

export { BASE, PASSWORD }

export const COOKIE = DEFAULT_LAST_LOGIN_METHOD_COOKIE

export interface MethodAuthOptions {
  readonly lastLoginMethod?: LastLoginMethodOptions
  readonly plugins?: readonly GatehousePlugin[]
  readonly core?: Omit<NonNullable<Parameters<typeof accountAuth>[0]>, 'plugins'>
}

export function methodAuth(options: MethodAuthOptions = {}) {
  return accountAuth({ ...options.core, plugins: [lastLoginMethod(options.lastLoginMethod), ...(options.plugins ?? [])] })
}

export type MethodAuth = ReturnType<typeof methodAuth>

type Handler = { handler(request: Request): Promise<Response> }

export async function post(auth: Handler, path: string, json: unknown, cookie = '', headers: Record<string, string> = {}) {
  const response = await auth.handler(request(`/api/auth${path}`, { json: json ?? {}, headers: { origin: BASE, ...(cookie ? { cookie } : {}), ...headers } }))
  return browserAnswer(response, cookie)
}

export async function get(auth: Handler, path: string, cookie = '') {
  const response = await auth.handler(request(`/api/auth${path}`, { headers: cookie ? { cookie } : {} }))
  return browserAnswer(response, cookie)
}

let counter = 0

/** Signs up with a fresh address: the answer, the address and the user's id. */
export async function signUp(auth: Handler, fields: Record<string, unknown> = {}) {
  counter += 1
  const email = `user-${counter}@example.com`
  const answer = await post(auth, '/sign-up/email', { email, name: 'Someone', password: PASSWORD, ...fields })
  return { ...answer, email, userId: answer.body?.user?.id as string }
}

/** The Set-Cookie line of the method cookie (`name`), if the answer set it. */
export function methodLine(setCookies: readonly string[], name = COOKIE): string | undefined {
  return setCookies.find((line) => line.startsWith(`${name}=`))
}

/** The method the answer stored in the cookie, or undefined. */
export function methodSet(setCookies: readonly string[], name = COOKIE): string | undefined {
  return methodLine(setCookies, name)?.split(';')[0]?.slice(name.length + 1)
}

/** The method cookie as the browser sends it next, or undefined. */
export function methodSent(cookie: string, name = COOKIE): string | undefined {
  return cookie
    .split('; ')
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1)
}

export async function userRow(auth: MethodAuth, id: string) {
  const { db } = await auth.$context
  return db.findOne<Record<string, unknown>>({ model: 'user', where: { field: 'id', value: id } })
}

function userByEmail(db: Store, email: string) {
  return db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
}

/**
 * Stand-ins for sign-in routes of plugins this repository does not have:
 * POST /sign-in/anonymous (a new user, signed in), POST /sign-in/phone-number
 * (a first factor through core's `completeFirstFactor`, so two-factor may
 * hold it) and GET /oauth2/callback/:providerId (signs the user of `?email=`
 * in, then redirects, as a generic OAuth callback does).
 */
export function standIns(): GatehousePlugin {
  return definePlugin({
    id: 'stand-ins',
    endpoints: {
      signInAnonymous: defineEndpoint({
        method: 'POST',
        path: '/sign-in/anonymous',
        handler: async (ctx) => {
          counter += 1
          const user = await ctx.db.create<User & Row>({ model: 'user', data: { name: 'Anonymous', email: `anonymous-${counter}@example.com`, emailVerified: false } })
          const session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent') })
          setSessionCookies(ctx, session)
          return { token: session.token, user: session.user }
        },
      }),
      signInPhoneNumber: defineEndpoint({
        method: 'POST',
        path: '/sign-in/phone-number',
        handler: async (ctx) => {
          const { email } = ctx.body as { email: string }
          const user = await userByEmail(ctx.db, email)
          if (!user) return { ok: false }
          const outcome = await completeFirstFactor(ctx, user, { amr: ['sms'], rememberMe: true })
          return outcome.challenge ?? { token: outcome.session.token }
        },
      }),
      oauth2Callback: defineEndpoint({
        method: 'GET',
        path: '/oauth2/callback/:providerId',
        handler: async (ctx) => {
          const { email } = ctx.query as { email: string }
          const user = await userByEmail(ctx.db, email)
          if (!user) return ctx.redirect('/sign-in?error=unknown')
          const session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent') })
          setSessionCookies(ctx, session)
          return ctx.redirect('/dashboard')
        },
      }),
    },
  })
}
