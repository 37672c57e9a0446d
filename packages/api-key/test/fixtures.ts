/**
 * Fixtures for the API key flows: an auth with the organization plugin and
 * this plugin on the in-memory adapter (or a SQL backend), users signed up
 * through the real routes, and requests as a browser (cookie and Origin) or
 * as a script (the key header, nothing else).
 */
import type { AdapterFactory, GatehousePlugin, LoggerOptions } from '@gatehouse/core'
import { organization } from '@gatehouse/organization'
import { accountAuth, authed, browserAnswer, signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { apiKey } from '../src/plugin.js'
import type { ApiKeyOptions } from '../src/options.js'

export { addMember, createOrg } from '../../organization/test/fixtures.js'

export interface KeyAuthOptions {
  readonly apiKey?: ApiKeyOptions
  readonly database?: AdapterFactory
  readonly logger?: LoggerOptions
  readonly plugins?: readonly GatehousePlugin[]
  readonly user?: NonNullable<Parameters<typeof accountAuth>[0]>['user']
}

export function keyAuth(options: KeyAuthOptions = {}) {
  return accountAuth({
    plugins: [organization(), apiKey(options.apiKey), ...(options.plugins ?? [])],
    ...(options.database ? { database: options.database } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.user ? { user: options.user } : {}),
  })
}

export type KeyAuth = ReturnType<typeof keyAuth>

let counter = 0

export interface Person {
  readonly id: string
  readonly email: string
  readonly cookie: string
}

export async function person(auth: KeyAuth, label = 'user'): Promise<Person> {
  counter += 1
  const email = `${label}-${counter}@example.com`
  const { body, cookie } = await signUp(auth, { email })
  return { id: body.user.id as string, email, cookie }
}

/** A browser's call: cookie and Origin. */
export async function asBrowser(auth: KeyAuth, who: Person, path: string, json?: unknown) {
  return browserAnswer(await auth.handler(authed(path, who.cookie, json === undefined ? {} : { json })))
}

/** A script's call: the key header only (no cookie, no Origin). */
export async function asScript(auth: KeyAuth, key: string, path: string, init: { json?: unknown; header?: string } = {}) {
  const { json, header = 'x-api-key' } = init
  return browserAnswer(await auth.handler(request(path, { headers: { [header]: key }, ...(json === undefined ? {} : { json }) })))
}

export async function createKey(auth: KeyAuth, who: Person, body: Record<string, unknown> = {}) {
  const answer = await asBrowser(auth, who, '/api/auth/api-key/create', { name: 'script', ...body })
  if (answer.status !== 200) throw new Error(`create: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.body as { id: string; key: string; start: string; [field: string]: unknown }
}
