/**
 * docs/getting-started.md, followed as written in an empty folder with the
 * packed packages: its files come from its code blocks (the `// file:`
 * markers) and its commands from its `sh` blocks, so the page cannot drift
 * from the packages. The page's server (which migrates at start) then answers
 * sign-up, sign-in and get-session over HTTP, as the React page would call
 * them, and its own `/api/me` reads the session from node:http's headers.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { freshFolder, installSpecs, npmInstall, readGuide, repoRoot, run, start, waitForOk } from './install-kit.js'

const guide = readGuide(readFileSync(join(repoRoot, 'docs/getting-started.md'), 'utf8'))
const project = freshFolder('guide')
const servers: Array<() => void> = []
afterAll(() => {
  for (const stop of servers) stop()
  project.remove()
})

/** A port nothing listens on, for the guide's server (PORT, as the page reads it). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))))
    })
  })
}

/** Runs one line of the guide; returns the base URL of a server it starts. */
async function follow(command: string): Promise<string | undefined> {
  const [tool, ...args] = command.split(/\s+/)
  const cwd = project.dir
  if (tool === 'npm' && (args[0] === 'init' || args[0] === 'pkg')) {
    await run('npm', args, { cwd })
    return undefined
  }
  if (tool === 'npm' && args[0] === 'install') {
    const dev = args.includes('-D') || args.includes('--save-dev')
    const names = args.slice(1).filter((arg) => !arg.startsWith('-'))
    await npmInstall(cwd, installSpecs(names, inject('packed')), dev)
    return undefined
  }
  if (tool === 'npx' && (args[0] === 'gatehouse' || args[0] === 'tsc')) {
    await run('npx', ['--no-install', ...args], { cwd, timeout: 120_000 })
    return undefined
  }
  if (tool === 'npx' && args[0] === 'tsx') {
    const port = await freePort()
    const server = start('npx', ['--no-install', ...args], { cwd, env: { PORT: String(port) } })
    servers.push(server.stop)
    await waitForOk(`http://127.0.0.1:${port}/api/auth/ok`, server.output)
    return `http://127.0.0.1:${port}`
  }
  // The browser's dev server: the HTTP calls below stand in for the page.
  if (tool === 'npx' && args[0] === 'vite') return undefined
  throw new Error(`docs/getting-started.md runs \`${command}\`, which this test does not know how to follow: teach it here.`)
}

describe('docs/getting-started.md, followed from an empty folder', () => {
  it('marks the files it writes and the commands it runs', () => {
    expect([...guide.files.keys()].sort()).toEqual(
      ['index.html', 'src/auth.ts', 'src/mail.ts', 'src/server.ts', 'src/web/client.ts', 'src/web/main.tsx', 'tsconfig.json', 'vite.config.ts'].sort(),
    )
    expect(guide.commands).toContain('npx gatehouse migrate')
  })

  it('installs, migrates, type-checks, and its server signs up, signs in and reads the session', { timeout: 600_000 }, async () => {
    for (const [file, text] of guide.files) {
      mkdirSync(dirname(join(project.dir, file)), { recursive: true })
      writeFileSync(join(project.dir, file), text)
    }
    let server: string | undefined
    for (const command of guide.commands) server = (await follow(command)) ?? server
    expect(server, 'the guide starts its server').toBeDefined()

    // The page's origin: the guide's baseURL, which Vite serves and proxies to this server.
    const origin = 'http://localhost:5173'
    const headers = { 'content-type': 'application/json', origin }
    const credentials = { email: 'Ada@Example.com', password: 'correct horse battery staple' }

    const signUp = await fetch(`${server}/api/auth/sign-up/email`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Ada', ...credentials }),
    })
    expect(signUp.status, await signUp.clone().text()).toBe(200)
    expect(signUp.headers.getSetCookie().some((cookie) => cookie.startsWith('gatehouse.session_token='))).toBe(true)

    const signIn = await fetch(`${server}/api/auth/sign-in/email`, { method: 'POST', headers, body: JSON.stringify(credentials) })
    expect(signIn.status, await signIn.clone().text()).toBe(200)
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';', 1)[0])
      .join('; ')

    const session = await fetch(`${server}/api/auth/get-session`, { headers: { cookie } })
    expect(session.status).toBe(200)
    const body = (await session.json()) as { user: { email: string; emailVerified: boolean } }
    expect(body.user).toMatchObject({ email: 'ada@example.com', emailVerified: false })

    const anonymous = await fetch(`${server}/api/auth/get-session`)
    expect(await anonymous.json()).toBeNull()

    // Step 6: the page's own route reads the session from node:http's req.headers.
    const me = await fetch(`${server}/api/me`, { headers: { cookie } })
    expect(me.status).toBe(200)
    expect(await me.json()).toEqual({ email: 'ada@example.com' })
    expect((await fetch(`${server}/api/me`)).status).toBe(401)
  })
})
