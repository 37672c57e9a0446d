/**
 * Every publishable package, packed and installed with npm in a fresh
 * project, as users install it: each entry point of its exports map loads
 * from ESM and from CommonJS, a small program type-checks under `node16`
 * and `bundler` resolution against the shipped `.d.ts` files, and sign-up,
 * sign-in and get-session run through `auth.api`. publint and
 * arethetypeswrong (node16 and bundler profiles) check each tarball.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freshFolder, installSpecs, npmInstall, repoRoot, run, type PackedPackage } from './install-kit.js'

const packed: readonly PackedPackage[] = inject('packed')
const project = freshFolder('packages')
afterAll(() => project.remove())

/** Every specifier a user can import: `@gatehouse/core`, `@gatehouse/core/node`, ... */
const specifiers = packed.flatMap((pkg) => pkg.entryPoints.map((entry) => (entry === '.' ? pkg.name : `${pkg.name}${entry.slice(1)}`)))

function write(file: string, text: string): void {
  mkdirSync(dirname(join(project.dir, file)), { recursive: true })
  writeFileSync(join(project.dir, file), text)
}

/** A tool installed in this folder's workspace package (the lockfile pins it). */
function bin(name: string, file: string): string {
  return join(repoRoot, 'scripts/install/node_modules', name, file)
}

beforeAll(async () => {
  await run('npm', ['init', '-y'], { cwd: project.dir })
  await run('npm', ['pkg', 'set', 'type=module'], { cwd: project.dir })
  // The optional peers every entry point may load: the database drivers, Redis, vitest (./testing), React.
  const peers = ['better-sqlite3', 'pg', 'mysql2', 'ioredis', 'vitest', 'react', 'react-dom']
  await npmInstall(project.dir, installSpecs([...packed.map((pkg) => pkg.name), ...peers], packed))
  await npmInstall(project.dir, ['typescript@~5.9.3', '@types/node@^20.19.0', '@types/react@^19'], true)
}, 300_000)

describe('the packed packages, installed with npm', () => {
  it('load every entry point from ESM', async () => {
    write('esm-check.mjs', `for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier)\nconsole.log('ok')\n`)
    expect(await run('node', ['esm-check.mjs'], { cwd: project.dir })).toContain('ok')
  })

  it('load every entry point from CommonJS', async () => {
    write('cjs-check.cjs', `for (const specifier of ${JSON.stringify(specifiers)}) require(specifier)\nconsole.log('ok')\n`)
    expect(await run('node', ['cjs-check.cjs'], { cwd: project.dir })).toContain('ok')
  })

  it('run a conformance suite from CommonJS only to hear vitest say why it cannot be required', async () => {
    write(
      'cjs-testing.cjs',
      `const { runSecondaryStorageConformance } = require('@gatehouse/core/testing')
try { runSecondaryStorageConformance({ name: 'x', createStorage: () => null }) } catch (error) { console.log(String(error)) }
`,
    )
    expect(await run('node', ['cjs-testing.cjs'], { cwd: project.dir })).toContain('Vitest cannot be imported in a CommonJS module using require()')
  })

  it('sign up, sign in and read the session through auth.api', async () => {
    write(
      'api-check.mjs',
      `import { createAuth } from '@gatehouse/core'
import { organization } from '@gatehouse/organization'
import { runMigrations } from '@gatehouse/core'
const auth = createAuth({ baseURL: 'http://localhost:3000', database: './data/api-check.db', emailAndPassword: { enabled: true }, plugins: [organization()], logger: { level: 'error' } })
await runMigrations(auth)
const body = { email: 'ada@example.com', password: 'correct horse battery staple' }
await auth.api.signUpEmail({ body: { ...body, name: 'Ada' } })
const { headers } = await auth.api.signInEmail({ body, returnHeaders: true })
const cookie = headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
const session = await auth.api.getSession({ headers: { cookie } })
console.log(JSON.stringify({ email: session?.user.email }))
await auth.close?.()
`,
    )
    expect(await run('node', ['api-check.mjs'], { cwd: project.dir })).toContain('{"email":"ada@example.com"}')
  })

  // Node 22.18+ strips types itself (process.features.typescript): there the import succeeds and this case cannot arise.
  const nodeStripsTypes = 'typescript' in process.features && Boolean(process.features.typescript)
  it.skipIf(nodeStripsTypes)('the CLI names the fix when Node cannot import a TypeScript config and tsx is not installed', async () => {
    write('ts-config/auth.ts', `export const auth: unknown = null\n`)
    const failure = await run('npx', ['--no-install', 'gatehouse', 'migrate', '--config', 'ts-config/auth.ts'], { cwd: project.dir }).catch((error: unknown) => error)
    expect(String(failure)).toMatch(/is TypeScript, which Node [\d.]+ cannot import on its own: install tsx in the project/)
  })

  const program = `import { createAuth, runMigrations, type Session, type User } from '@gatehouse/core'
import { toNodeHandler } from '@gatehouse/core/node'
import { organization } from '@gatehouse/organization'
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'

export const auth = createAuth({
  baseURL: 'http://localhost:3000',
  secret: process.env.AUTH_SECRET,
  database: './data/app.db',
  emailAndPassword: { enabled: true },
  plugins: [organization()],
})
export const handler = toNodeHandler(auth)
await runMigrations(auth)
const session: { session: Session; user: User } | null = await auth.api.getSession({ headers: new Headers() })
export const email: string | undefined = session?.user.email

export const client = createAuthClient<typeof auth>({ baseURL: 'http://localhost:3000', plugins: [organizationClient()] })
export const created = client.organization.create({ name: 'Acme', slug: 'acme' })
`

  for (const [name, options] of [
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ] as const) {
    it(`type-check a program under moduleResolution ${name}`, async () => {
      write(`types-${name}/index.ts`, program)
      const compilerOptions = { ...options, target: 'es2022', strict: true, exactOptionalPropertyTypes: true, noEmit: true, types: ['node'], lib: ['es2023', 'dom'] }
      write(`types-${name}/tsconfig.json`, JSON.stringify({ compilerOptions, include: ['index.ts'] }))
      await run('npx', ['--no-install', 'tsc', '-p', `types-${name}`], { cwd: project.dir })
    })
  }
})

describe.each(packed.map((pkg) => [pkg.name, pkg] as const))('%s', (_, pkg) => {
  it('ships its README and the LICENSE', async () => {
    const files = (await run('tar', ['-tzf', pkg.tarball], { cwd: project.dir })).split('\n')
    expect(files).toEqual(expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']))
  })

  it('passes publint', async () => {
    // The tarball as published: publint reads its files, not the workspace folder.
    await run(process.execPath, [bin('publint', 'src/cli.js'), 'run', pkg.tarball, '--strict'], { cwd: project.dir })
  })

  it('passes arethetypeswrong under node16 and bundler', async () => {
    // attw's node16 profile checks node16 (CommonJS and ESM) and bundler resolution; it leaves out node10.
    await run(process.execPath, [bin('@arethetypeswrong/cli', 'dist/index.js'), pkg.tarball, '--profile', 'node16', '--format', 'ascii'], { cwd: project.dir })
  })
})
