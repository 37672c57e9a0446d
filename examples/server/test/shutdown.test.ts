/**
 * SIGTERM against the built server (dist/main.js), as a process manager
 * sends it: requests in flight finish (sign-ups in the middle of their scrypt
 * hash among them), new connections are refused at once, and the process
 * exits 0 within SHUTDOWN_TIMEOUT; one that cannot drain in time is cut and
 * exits 1 (docs/deployment.md#graceful-shutdown).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { freePort, runBuilt, type BuiltRun } from './harness.js'
import { halfSentSignUp } from './multi-process-harness.js'

let dir: string
let runs: BuiltRun[] = []

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-shutdown-'))
})
afterEach(async () => {
  for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  runs = []
  await rm(dir, { recursive: true, force: true })
})

async function start(env: Record<string, string>): Promise<{ run: BuiltRun; port: number; url: string }> {
  const port = await freePort()
  // One libuv thread: the sign-ups' scrypt hashes queue behind each other, so several are mid-hash when SIGTERM lands.
  const run = runBuilt({ PORT: String(port), DATABASE_PATH: join(dir, 'auth.db'), RATE_LIMIT: '0', UV_THREADPOOL_SIZE: '1', ...env })
  runs.push(run)
  await run.ready
  return { run, port, url: `http://127.0.0.1:${port}` }
}

function signUp(url: string, email: string): Promise<Response> {
  return fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', name: email.split('@')[0] }),
  })
}

/** Whether a new TCP connection to `port` is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}

describe('SIGTERM', () => {
  it('lets requests in flight finish, refuses new connections, and exits 0 in time', async () => {
    const { run, port, url } = await start({ SHUTDOWN_TIMEOUT: '8' })
    const slow = await halfSentSignUp(port, 'slow@example.com')
    const emails = Array.from({ length: 6 }, (_, index) => `hash${index}@example.com`)
    const signUps = emails.map((email) => signUp(url, email))
    // The sign-ups are received and hashing one after another (about 50 ms each on one thread).
    await new Promise((resolve) => setTimeout(resolve, 150))
    const signalled = performance.now()
    run.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(await accepts(port)).toBe(false)
    expect(run.child.exitCode).toBeNull()

    slow.finish()
    const responses = await Promise.all(signUps)
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 200))
    for (const [index, response] of responses.entries()) expect((await response.json()).user.email).toBe(emails[index])
    const raw = await slow.answer
    expect(raw).toMatch(/^HTTP\/1\.1 200 /)
    // The answer tells the client not to reuse the connection, and the server closed it.
    expect(raw.toLowerCase()).toContain('connection: close')
    expect(await run.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(8000)
    expect(run.output()).toContain('SIGTERM: stopping')

    // The rows are there, complete: each account signs in with its password on the restarted server.
    const again = await start({})
    for (const email of [...emails, 'slow@example.com']) {
      const signIn = await fetch(`${again.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: again.url, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery' }),
      })
      expect(signIn.status, email).toBe(200)
    }
    again.run.child.kill('SIGTERM')
    expect(await again.run.exited).toBe(0)
  })

  it('closes idle keep-alive connections at once instead of waiting for them', async () => {
    const { run, url } = await start({ SHUTDOWN_TIMEOUT: '20' })
    // fetch keeps its connection open for reuse after this answer.
    expect((await fetch(`${url}/api/auth/ok`)).status).toBe(200)
    const signalled = performance.now()
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(3000)
  })

  it('cuts what is still running after SHUTDOWN_TIMEOUT and exits 1', async () => {
    const { run, port } = await start({ SHUTDOWN_TIMEOUT: '1' })
    const stuck = await halfSentSignUp(port, 'stuck@example.com')
    const signalled = performance.now()
    run.child.kill('SIGTERM')
    expect(await run.exited, `signal ${run.child.signalCode}, output: ${run.output()}`).toBe(1)
    const elapsed = performance.now() - signalled
    expect(elapsed).toBeGreaterThanOrEqual(900)
    expect(elapsed).toBeLessThan(4000)
    expect(run.output()).toContain('stopped with requests still in flight')
    // The request never ran: no response, no account.
    expect(await stuck.answer).toBe('')
    const again = await start({})
    const signIn = await fetch(`${again.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: again.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'stuck@example.com', password: 'correct horse battery' }),
    })
    expect(signIn.status).toBe(401)
  })
})
