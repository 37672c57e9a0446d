/**
 * The framework examples (examples/express, examples/hono, examples/nextjs)
 * as a user gets them: each one's sources copied to a fresh folder, its
 * `workspace:` dependencies replaced by the packed tarballs, `npm install`,
 * `npm run build`, its `start`, and the same account flow in Chromium that
 * the browser suite runs on the workspace's build (examples/e2e).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, inject, it } from 'vitest'
import { accountFlow } from '../../examples/e2e/src/framework-pages.js'
import { browserSuiteOn, chromiumPath, startFrameworkExample, type FrameworkName } from '../../examples/e2e/src/harness.js'
import { installSpecs, npmInstall, repoRoot, run, type PackedPackage } from './install-kit.js'

interface Manifest {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

/** What `pnpm build` leaves in an example's folder, and the workspace's links: never copied. */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.next', 'data', 'next-env.d.ts'])

/**
 * The example's folder under `<temp>/examples/<name>`, beside a copy of the
 * repository's tsconfig.base.json: the layout its `extends` expects.
 */
function copyExample(name: FrameworkName): { readonly dir: string; readonly remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), `gatehouse-example-${name}-`))
  const dir = join(parent, 'examples', name)
  cpSync(join(repoRoot, 'examples', name), dir, { recursive: true, filter: (source) => !NOT_SOURCE.has(basename(source)) && !source.endsWith('.tsbuildinfo') })
  cpSync(join(repoRoot, 'tsconfig.base.json'), join(parent, 'tsconfig.base.json'))
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) }
}

/**
 * Its package.json with every `workspace:` range replaced by the tarball
 * (`file:`), and better-sqlite3 pinned to the workspace's version, whose
 * compiled binding npmInstall copies in.
 */
function useTarballs(dir: string, packed: readonly PackedPackage[]): void {
  const file = join(dir, 'package.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest
  const resolve = (ranges: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries(ranges).map(([name, range]) => {
        const [spec = name] = installSpecs([name], packed)
        if (spec === name) return [name, range]
        return [name, spec.startsWith('/') ? `file:${spec}` : spec.slice(name.length + 1)]
      }),
    )
  manifest.dependencies = resolve(manifest.dependencies)
  manifest.devDependencies = resolve(manifest.devDependencies)
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' }
const EXAMPLES: readonly FrameworkName[] = ['express', 'hono', 'nextjs']

for (const name of EXAMPLES) {
  describe.skipIf(!chromiumPath())(`examples/${name}, installed from the packed packages${chromiumPath() ? '' : ' (skipped: no Chromium)'}`, () => {
    let copy: ReturnType<typeof copyExample> | undefined
    beforeAll(async () => {
      copy = copyExample(name)
      useTarballs(copy.dir, inject('packed'))
      await npmInstall(copy.dir, [])
      await run('npm', ['run', 'build'], { cwd: copy.dir, timeout: 300_000 })
    }, 600_000)
    afterAll(() => copy?.remove())

    const suite = browserSuiteOn(() => {
      if (!copy) throw new Error('the example was not installed')
      return startFrameworkExample(name, { dir: copy.dir, webPort: name === 'hono' })
    })

    it('builds, starts, and signs up, protects its page, signs out and signs in', async () => {
      await accountFlow(await suite.newPage(), name, ADA)
    })
  })
}
