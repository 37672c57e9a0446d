/**
 * The framework examples (examples/express, examples/hono, examples/nextjs)
 * as a user gets them, by the section "Use this example on its own" of each
 * one's README: its `sh` block is read and each line followed (copy the
 * folder and drop what a build left, `npm pkg set` the Gatehouse versions,
 * `npm install`, `npm run build`, `npm start` with a fresh secret), then the
 * same account flow in Chromium that the browser suite runs on the
 * workspace's build (examples/e2e). A line this test does not know fails it,
 * so the README cannot drift from what is proven here.
 *
 * Two things differ from a user's machine, both about where packages come
 * from: the Gatehouse packages are the packed tarballs (`file:`) in place of
 * the README's `latest`, and better-sqlite3 is pinned to the workspace's
 * version, whose compiled binding npmInstall copies in (install-kit.ts).
 */
import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { accountFlow } from '../../examples/e2e/src/framework-pages.js'
import { browserSuiteOn, chromiumPath, startFrameworkExample, type FrameworkName } from '../../examples/e2e/src/harness.js'
import { installSpecs, npmInstall, readGuide, repoRoot, run, workspaceSqlite, type PackedPackage } from './install-kit.js'

const SECTION = '## Use this example on its own'

/** The commands of the README's standalone section, comments dropped. */
function standaloneCommands(name: FrameworkName): readonly string[] {
  const readme = readFileSync(join(repoRoot, 'examples', name, 'README.md'), 'utf8')
  const start = readme.indexOf(`\n${SECTION}\n`)
  if (start < 0) throw new Error(`examples/${name}/README.md has no section "${SECTION}"`)
  const rest = readme.slice(start + SECTION.length + 2)
  const end = rest.search(/^## /m)
  return readGuide(end < 0 ? rest : rest.slice(0, end)).commands
}

interface Copy {
  dir: string | undefined
  readonly parent: string
  secret: string | undefined
}

/**
 * One line of the README. `cp -r examples/<name> <dir> && cd <dir> && rm -rf <paths>`
 * is done as one copy that leaves those paths out (the same folder, without
 * copying a built .next first).
 */
async function follow(command: string, name: FrameworkName, copy: Copy, packed: readonly PackedPackage[]): Promise<void> {
  const copyLine = /^cp -r examples\/(\S+) (\S+) && cd \2 && rm -rf (.+)$/.exec(command)
  if (copyLine) {
    const [, source, target = '', paths = ''] = copyLine
    expect(source, 'the README copies its own folder').toBe(name)
    const dropped = new Set(paths.split(/\s+/))
    const from = join(repoRoot, 'examples', name)
    copy.dir = join(copy.parent, target)
    cpSync(from, copy.dir, { recursive: true, filter: (path) => !dropped.has(relative(from, path)) })
    return
  }
  const dir = copy.dir
  if (dir === undefined) throw new Error(`examples/${name}/README.md runs \`${command}\` before copying the folder`)
  const [tool, ...args] = command.split(/\s+/)
  if (tool === 'npm' && args[0] === 'pkg' && args[1] === 'set') {
    const settings = args.slice(2).map((setting) => {
      const [key = '', value = ''] = setting.split('=')
      const dependency = /^dependencies\.(@gatehouse\/[a-z-]+)$/.exec(key)?.[1]
      expect(dependency, `${setting}: only Gatehouse versions are set`).toBeDefined()
      expect(value).toBe('latest')
      const [tarball = ''] = installSpecs([dependency ?? ''], packed)
      return `${key}=file:${tarball}`
    })
    await run('npm', ['pkg', 'set', ...settings, `dependencies.better-sqlite3=${workspaceSqlite().version}`], { cwd: dir })
    // Every `workspace:` range is replaced by the README's line: npm could install none of them.
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).not.toContain('workspace:')
    return
  }
  if (command === 'npm install') return npmInstall(dir, [])
  if (command === 'npm run build') {
    await run('npm', ['run', 'build'], { cwd: dir, timeout: 300_000 })
    return
  }
  if (command === 'AUTH_SECRET=$(openssl rand -base64 32) npm start') {
    // Started below, by the harness, as the `start` script runs it, with a secret like openssl's.
    copy.secret = randomBytes(32).toString('base64')
    return
  }
  throw new Error(`examples/${name}/README.md runs \`${command}\`, which this test does not know how to follow: teach it here.`)
}

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' }
const EXAMPLES: readonly FrameworkName[] = ['express', 'hono', 'nextjs']

for (const name of EXAMPLES) {
  describe(`examples/${name}/README.md, "${SECTION.slice(3)}"`, () => {
    it('copies the folder, sets every Gatehouse dependency, installs, builds and starts with a secret', () => {
      const commands = standaloneCommands(name)
      expect(commands).toHaveLength(5)
      expect(commands[0]).toMatch(new RegExp(`^cp -r examples/${name} my-app && cd my-app && rm -rf node_modules `))
      const manifest = JSON.parse(readFileSync(join(repoRoot, 'examples', name, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
      const workspace = Object.keys(manifest.dependencies).filter((dependency) => manifest.dependencies[dependency]?.startsWith('workspace:'))
      expect(commands[1]).toBe(`npm pkg set ${workspace.map((dependency) => `dependencies.${dependency}=latest`).join(' ')}`)
      expect(commands.slice(2)).toEqual(['npm install', 'npm run build', 'AUTH_SECRET=$(openssl rand -base64 32) npm start'])
    })

    it('every pattern attribute of its pages compiles under the v flag, as browsers now read it', () => {
      const folder = join(repoRoot, 'examples', name)
      const pages = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(tsx|html)$/.test(file) && !/^(node_modules|\.next|dist)\b/.test(file))
      const patterns = pages.flatMap((file) => [...readFileSync(join(folder, file), 'utf8').matchAll(/\bpattern="([^"]+)"/g)].map((match) => match[1] ?? ''))
      if (name === 'nextjs') expect(patterns).toContain('[a-z0-9\\-]+')
      for (const pattern of patterns) expect(() => new RegExp(`^(?:${pattern})$`, 'v'), pattern).not.toThrow()
    })

    it('its tsconfig.json extends nothing, so the copy needs no file from the rest of the repository', () => {
      const config = JSON.parse(readFileSync(join(repoRoot, 'examples', name, 'tsconfig.json'), 'utf8')) as { extends?: string }
      expect(config.extends).toBeUndefined()
    })
  })

  describe.skipIf(!chromiumPath())(`examples/${name}, on its own, from the packed packages${chromiumPath() ? '' : ' (skipped: no Chromium)'}`, () => {
    const copy: Copy = { dir: undefined, parent: mkdtempSync(join(tmpdir(), `gatehouse-example-${name}-`)), secret: undefined }
    beforeAll(async () => {
      for (const command of standaloneCommands(name)) await follow(command, name, copy, inject('packed'))
    }, 900_000)
    afterAll(() => rmSync(copy.parent, { recursive: true, force: true }))

    const suite = browserSuiteOn(() => {
      if (!copy.dir || !copy.secret) throw new Error('the README did not copy, build and start the example')
      return startFrameworkExample(name, { dir: copy.dir, webPort: name === 'hono', env: { AUTH_SECRET: copy.secret } })
    })

    it('builds, starts, and signs up, protects its page, signs out and signs in', async () => {
      await accountFlow(await suite.newPage(), name, ADA)
    })
  })
}
