/**
 * Fixtures for the username flows: an auth with the plugin on the in-memory
 * adapter (or a SQL backend) and request shorthands returning status, body
 * and the next Cookie header.
 */
import type { AdapterFactory, GatehousePlugin } from '@gatehouse/core'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { UsernameOptions } from '../src/options.js'
import { username } from '../src/plugin.js'

export { BASE, PASSWORD }

export interface NameAuthOptions {
  readonly username?: UsernameOptions
  readonly database?: AdapterFactory
  readonly plugins?: readonly GatehousePlugin[]
  readonly core?: Omit<NonNullable<Parameters<typeof accountAuth>[0]>, 'plugins' | 'database'>
}

export function nameAuth(options: NameAuthOptions = {}) {
  return accountAuth({
    ...options.core,
    ...(options.database ? { database: options.database } : {}),
    plugins: [username(options.username), ...(options.plugins ?? [])],
  })
}

export type NameAuth = ReturnType<typeof nameAuth>

export async function post(auth: { handler(request: Request): Promise<Response> }, path: string, json: unknown, cookie = '', headers: Record<string, string> = {}) {
  const response = await auth.handler(request(`/api/auth${path}`, { json, headers: { origin: BASE, ...(cookie ? { cookie } : {}), ...headers } }))
  return browserAnswer(response, cookie)
}

let counter = 0

/** Signs up with `fields` (a username among them) and a fresh address. */
export function signUpNamed(auth: NameAuth, fields: Record<string, unknown>, cookie = '') {
  counter += 1
  return post(auth, '/sign-up/email', { email: `user-${counter}@example.com`, name: 'Someone', password: PASSWORD, ...fields }, cookie)
}

export async function userRow(auth: NameAuth, id: string) {
  const { db } = await auth.$context
  return db.findOne<Record<string, unknown>>({ model: 'user', where: { field: 'id', value: id } })
}
