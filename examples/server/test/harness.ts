/**
 * What the example server's tests share: a free port, the server started in
 * process on a temporary directory, the built `dist/main.js` started as
 * harnesses do (ready once it prints "ready on"), and a same-origin `call`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readConfig } from '../src/config.js'
import { startServer, type RunningServer } from '../src/server.js'

export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

/**
 * The server in process on a free port, its database in `dir` (an `env`
 * entry overrides PORT or DATABASE_PATH); no app unless `appDirectory` says.
 */
export async function startExample(
  dir: string,
  env: Record<string, string>,
  options: { appDirectory?: string; print?: (line: string) => void } = {},
): Promise<RunningServer> {
  const config = readConfig({ PORT: String(await freePort()), DATABASE_PATH: join(dir, 'auth.db'), ...env })
  return startServer(config, { appDirectory: options.appDirectory ?? join(dir, 'no-app'), print: options.print ?? (() => undefined) })
}

/** The cookies a response set, as a Cookie header (cleared ones left out). */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .filter((pair): pair is string => pair !== undefined && !pair.endsWith('='))
    .join('; ')
}

/** A same-origin request to `server`, no redirects followed; `json` makes it a JSON POST. */
export function caller(server: () => RunningServer) {
  return (path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) => sameOriginFetch(server().url, path, init)
}

/** A request to `url` from its own origin, no redirects followed; `json` makes it a JSON POST; `ip` is the client behind a proxy. */
export function sameOriginFetch(url: string, path: string, init: RequestInit & { json?: unknown; cookie?: string; ip?: string } = {}) {
  const headers = new Headers(init.headers)
  headers.set('origin', url)
  if (init.cookie) headers.set('cookie', init.cookie)
  if (init.ip) headers.set('x-forwarded-for', init.ip)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  return fetch(`${url}${path}`, {
    ...init,
    headers,
    redirect: 'manual',
    ...(init.json !== undefined ? { method: 'POST', body: JSON.stringify(init.json) } : {}),
  })
}

export const builtMain = fileURLToPath(new URL('../dist/main.js', import.meta.url))

export interface BuiltRun {
  child: ChildProcess
  exited: Promise<number | null>
  ready: Promise<void>
  output: () => string
}

/** `node dist/main.js` with only PATH and `env`; `ready` settles when it prints "ready on" or rejects if it exits first. */
export function runBuilt(env: Record<string, string>): BuiltRun {
  const child = spawn(process.execPath, [builtMain], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('ready on') && resolve())
    void exited.then(() => reject(new Error(`exited before ready:\n${output}`)))
  })
  // A run that is expected to fail never awaits `ready`: its rejection is not an error then.
  ready.catch(() => undefined)
  return { child, exited, ready, output: () => output }
}
