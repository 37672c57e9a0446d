/**
 * Fixtures for the session JWT tests: an auth with the jwt plugin (and
 * optionally the organization plugin or the OIDC provider) on the in-memory
 * adapter with a manual clock set to the real time (a second process checks
 * `exp` against its own clock), and the same auth served over HTTP on a
 * loopback port for verifiers that fetch the key set.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { manualClock, type GatehousePlugin } from '@gatehouse/core'
import { toNodeHandler } from '@gatehouse/core/node'
import { accountAuth, authed, browserAnswer, signUp } from '../../core/test/accounts.js'
import { jwt } from '../src/plugin.js'
import type { JwtOptions } from '../src/options.js'

export function jwtAuth(options: { jwt?: JwtOptions; plugins?: readonly GatehousePlugin[]; baseURL?: string } = {}) {
  const clock = manualClock(new Date())
  const auth = accountAuth({
    clock,
    ...(options.baseURL ? { baseURL: options.baseURL, trustedOrigins: [options.baseURL] } : {}),
    plugins: [jwt(options.jwt), ...(options.plugins ?? [])],
  })
  return Object.assign(auth, { clock })
}

export type JwtAuth = ReturnType<typeof jwtAuth>

let counter = 0

export async function signedIn(auth: JwtAuth, label = 'ada') {
  counter += 1
  const email = `${label}-${counter}@example.com`
  const { body, cookie } = await signUp(auth, { email, name: `${label} ${counter}` })
  return { id: body.user.id as string, email, cookie }
}

export async function tokenOf(auth: JwtAuth, cookie: string): Promise<string> {
  const answer = await browserAnswer(await auth.handler(authed('/api/auth/token', cookie)))
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.body.token as string
}

/** The auth on 127.0.0.1: its JWKS at `${url}/api/auth/jwks`. */
export async function serve(auth: JwtAuth): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(toNodeHandler(auth))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
