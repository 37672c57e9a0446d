/**
 * Fixtures for the admin flows: an auth with the plugin on the in-memory
 * adapter, users signed up through the real routes (an admin made by
 * writing the role), and request shorthands that return status, parsed
 * body and the cookies a browser would send next.
 */
import { memoryStorage, StorageUnavailableError, type SecondaryStorage } from '@gatehouse/core'
import { accountAuth, authed, cookieHeader, signIn, signUp } from '../../core/test/accounts.js'
import { admin } from '../src/plugin.js'
import type { AdminOptions } from '../src/options.js'

export type AdminAuth = ReturnType<typeof adminAuth>

export function adminAuth(options: AdminOptions = {}, core: Parameters<typeof accountAuth>[0] = {}) {
  return accountAuth({ ...core, plugins: [admin(options)] })
}

export interface TestUser {
  readonly id: string
  readonly email: string
  cookie: string
}

let counter = 0

/** Signs a user up and returns their cookie; `role` is written straight to the row. */
export async function newUser(auth: AdminAuth, options: { email?: string; name?: string; role?: string } = {}): Promise<TestUser> {
  counter += 1
  const email = options.email ?? `user${counter}-${Math.floor(performance.now())}@example.com`
  // The test clock stands still: move it so rows sort by creation.
  auth.clock.advance(1000)
  const { body, cookie } = await signUp(auth, { email, ...(options.name ? { name: options.name } : {}) })
  if (!body.user) throw new Error(`sign-up failed: ${JSON.stringify(body)}`)
  if (options.role) {
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: body.user.id }, update: { role: options.role } })
  }
  return { id: body.user.id, email: body.user.email, cookie }
}

/** An admin, two ordinary users and the anonymous caller. */
export async function cast(auth: AdminAuth) {
  const root = await newUser(auth, { role: 'admin' })
  const alice = await newUser(auth)
  const bob = await newUser(auth)
  return { root, alice, bob }
}

export interface Reply {
  readonly status: number
  // Response bodies are JSON of unknown shape; tests assert on them.
  readonly body: any
  /** The caller's cookies after the response. */
  readonly cookie: string
  readonly response: Response
}

/** POST with a JSON body to `/api/auth/admin/<path>`. */
export async function post(auth: AdminAuth, path: string, caller: TestUser | string | null, json: unknown = {}): Promise<Reply> {
  const cookie = typeof caller === 'string' ? caller : (caller?.cookie ?? '')
  const response = await auth.handler(authed(`/api/auth/admin/${path}`, cookie, { json }))
  return { status: response.status, body: await response.clone().json(), cookie: cookieHeader(response, cookie), response }
}

export async function get(auth: AdminAuth, path: string, caller: TestUser | null, query: Record<string, string> = {}): Promise<Reply> {
  const search = new URLSearchParams(query).toString()
  const cookie = caller?.cookie ?? ''
  const response = await auth.handler(authed(`/api/auth/admin/${path}${search ? `?${search}` : ''}`, cookie))
  return { status: response.status, body: await response.clone().json(), cookie: cookieHeader(response, cookie), response }
}

/** The session `cookie` stands for, as get-session answers it (null when signed out). */
export async function sessionFor(auth: AdminAuth, cookie: string): Promise<{ session: Record<string, unknown>; user: Record<string, unknown> } | null> {
  const response = await auth.handler(authed('/api/auth/get-session', cookie))
  return response.status === 200 ? response.json() : null
}

export async function sessionRows(auth: AdminAuth, userId: string) {
  const { db } = await auth.$context
  return db.findMany<{ id: string; token: string; userId: string; impersonatedBy: string | null; expiresAt: Date }>({
    model: 'session',
    where: { field: 'userId', value: userId },
  })
}

/** Secondary storage whose deletes fail while `down`, as a Redis that went away. */
export function flakyStorage() {
  const inner = memoryStorage()
  let down = false
  const storage: SecondaryStorage = {
    get: (key) => inner.get(key),
    set: (key, value, ttl) => inner.set(key, value, ttl),
    async delete(key) {
      if (down) throw new StorageUnavailableError('Redis is unavailable (connection end)')
      await inner.delete(key)
    },
  }
  return { storage, setDown: (value: boolean) => void (down = value) }
}

export { signIn, signUp }

export const unauthorized = { status: 401 }
