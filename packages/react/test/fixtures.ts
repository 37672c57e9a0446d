/**
 * A real in-process Gatehouse server (core on the memory adapter, email and
 * password on, rate limits off, mails captured) and a browser to reach it
 * (browser.ts). The options are written out as a literal so that
 * `createAuthClient<typeof server>()` sees the additional fields.
 */
import { createAuth, type AfterHook, type GatehousePlugin } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { mailbox } from '../../core/test/accounts.js'
import { BASE, SECRET } from '../../core/test/helpers.js'
import { browser, type Browser } from './browser.js'

export { BASE }
export const PASSWORD = 'correct horse battery'

export interface ServerOptions<P extends readonly GatehousePlugin[]> {
  /** After-hooks: a server that answers differently from what its client expects (a version skew, say). */
  readonly after?: readonly AfterHook[]
  readonly plugins?: P
}

export function testServer<const P extends readonly GatehousePlugin[] = []>(options: ServerOptions<P> = {}) {
  const box = mailbox()
  const server = createAuth({
    baseURL: BASE,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    rateLimit: { enabled: false },
    oneTimeToken: true,
    plugins: options.plugins,
    hooks: { after: options.after ?? [] },
    emailAndPassword: box.options.emailAndPassword,
    emailVerification: box.options.emailVerification,
    user: {
      additionalFields: {
        plan: { type: 'string', required: false },
        seats: { type: 'number' },
        birthday: { type: 'date', required: false },
        internalNote: { type: 'string', required: false, input: false, returned: false },
      },
      changeEmail: { enabled: true },
      deleteUser: { enabled: true },
    },
    session: { additionalFields: { device: { type: 'string', required: false } } },
  })
  return Object.assign(server, { mailbox: box })
}

export type TestServer = ReturnType<typeof testServer<[]>>

let counter = 0

/** A fresh address per call: tests share no users. */
export function email(): string {
  counter += 1
  return `user${counter}@example.com`
}

export interface Setup<S> {
  readonly server: S
  readonly browser: Browser
}

/** A server and one browser pointed at it. */
export function setup<const P extends readonly GatehousePlugin[] = []>(options: ServerOptions<P> = {}) {
  const server = testServer(options)
  return { server, browser: browser(server) }
}
