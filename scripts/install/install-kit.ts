/**
 * @module
 * What the install checks share: the publishable packages packed as npm
 * would publish them (`pnpm pack` turns `workspace:^` into versions), a
 * fresh npm project outside the workspace, commands run with their output
 * kept for the failure message, and the code blocks of a docs page.
 *
 * better-sqlite3 is installed without its install script and given the
 * workspace's compiled binding (the same version, pinned): compiling it
 * again takes about 100 s on a CI box without a matching prebuilt binary
 * (docs/getting-started.md#1-install says how users get it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dirname, '../..')

export interface PackedPackage {
  readonly name: string
  readonly dir: string
  readonly tarball: string
  /** Subpaths of the exports map, `.` first, without `./package.json`. */
  readonly entryPoints: readonly string[]
}

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly exports?: Readonly<Record<string, unknown>>
}

/**
 * The environment a user's shell would give: without what vitest adds to
 * its own (`BASE_URL=/`, `MODE`, `NODE_ENV=test`, `VITEST*`), which the
 * guide's code would read.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    // NODE_PATH comes from pnpm's bin shims and would let Node resolve the workspace's hoisted packages (tsx, say) from anywhere.
    if (['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'NODE_ENV', 'TEST', 'NODE_PATH'].includes(key) || key.startsWith('VITEST')) continue
    env[key] = value
  }
  return { ...env, ...extra }
}

/** A command's failure, with everything it printed. */
export class CommandError extends Error {}

/** Runs a command; rejects with its output when it exits non-zero or outlives `timeout` ms. */
export function run(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly timeout?: number },
): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      command,
      [...args],
      { cwd: options.cwd, env: userEnv(options.env), timeout: options.timeout ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) fail(new CommandError(`${command} ${args.join(' ')} (in ${options.cwd}) failed: ${error.message}\n${stdout}\n${stderr}`))
        else done(`${stdout}${stderr}`)
      },
    )
  })
}

/** The pnpm running this test (`pnpm test` sets npm_execpath; .ci/run gets it through npx), else the one on PATH. */
function pnpm(args: readonly string[]): [string, string[]] {
  const execPath = process.env.npm_execpath
  return execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath, ...args]] : ['pnpm', [...args]]
}

/** Packs every publishable package of packages/ into `destination` (their dist/ must be built). */
export async function packPackages(destination: string): Promise<PackedPackage[]> {
  mkdirSync(destination, { recursive: true })
  const packed: PackedPackage[] = []
  for (const folder of readdirSync(join(repoRoot, 'packages')).sort()) {
    const dir = join(repoRoot, 'packages', folder)
    const manifestFile = join(dir, 'package.json')
    if (!existsSync(manifestFile)) continue
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest
    if (manifest.private) continue
    if (!existsSync(join(dir, 'dist'))) throw new Error(`${manifest.name} has no dist/: run \`pnpm build\` first`)
    const before = new Set(readdirSync(destination))
    await run(...pnpm(['pack', '--pack-destination', destination]), { cwd: dir })
    const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz') && !before.has(file))
    if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${manifest.name}`)
    const entryPoints = Object.keys(manifest.exports ?? { '.': null }).filter((key) => key !== './package.json')
    packed.push({ name: manifest.name, dir, tarball: join(destination, tarball), entryPoints })
  }
  return packed
}

/** The workspace's better-sqlite3: its version and its compiled binding. */
export function workspaceSqlite(): { readonly version: string; readonly binding: string } {
  const require = createRequire(join(repoRoot, 'packages/core/package.json'))
  const manifest = require.resolve('better-sqlite3/package.json')
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }
  return { version, binding: join(dirname(manifest), 'build/Release/better_sqlite3.node') }
}

/** A new folder outside the workspace, so nothing resolves through its node_modules. */
export function freshFolder(prefix: string): { readonly dir: string; readonly remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`))
  const dir = join(parent, 'my-app')
  mkdirSync(dir)
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) }
}

const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts']

/**
 * `npm install` as a user types it, with install scripts off (none of the
 * packages used here needs one but better-sqlite3, whose binding is copied in).
 */
export async function npmInstall(dir: string, specs: readonly string[], dev = false): Promise<void> {
  await run('npm', ['install', ...(dev ? ['--save-dev'] : []), ...npmFlags, ...specs], { cwd: dir, timeout: 300_000 })
  const binding = join(dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
  if (existsSync(join(dir, 'node_modules/better-sqlite3')) && !existsSync(binding)) {
    mkdirSync(dirname(binding), { recursive: true })
    copyFileSync(workspaceSqlite().binding, binding)
  }
}

/** Replaces package names by what this test installs: the tarballs, and the workspace's better-sqlite3 version. */
export function installSpecs(names: readonly string[], packed: readonly PackedPackage[]): string[] {
  return names.map((name) => {
    const local = packed.find((pkg) => pkg.name === name)
    if (local) return local.tarball
    if (name === 'better-sqlite3') return `better-sqlite3@${workspaceSqlite().version}`
    return name
  })
}

export interface GuideBlocks {
  /** Files the page writes, marked by a first line `// file: <path>` (or `<!-- file: <path> -->`); the last version of each. */
  readonly files: ReadonlyMap<string, string>
  /** The lines of its `sh` blocks, in order, comments dropped. */
  readonly commands: readonly string[]
  /** Both in page order, for a page that writes a file again after running commands. */
  readonly steps: readonly GuideStep[]
}

export type GuideStep = { readonly file: string; readonly text: string } | { readonly command: string }

/** Reads the code blocks of a Markdown page: the files it writes and the commands it runs. */
export function readGuide(markdown: string): GuideBlocks {
  const files = new Map<string, string>()
  const commands: string[] = []
  const steps: GuideStep[] = []
  for (const match of markdown.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)) {
    const [, lang = '', body = ''] = match
    const marker = /^(?:\/\/|<!--)\s*file:\s*(\S+?)\s*(?:-->)?$/.exec(body.split('\n', 1)[0] ?? '')
    if (marker?.[1]) {
      files.set(marker[1], body)
      steps.push({ file: marker[1], text: body })
    } else if (lang === 'sh') {
      for (const line of body.split('\n')) {
        const command = line.replace(/\s+#.*$/, '').trim()
        if (command && !command.startsWith('#')) {
          commands.push(command)
          steps.push({ command })
        }
      }
    }
  }
  return { files, commands, steps }
}

/** The part of a Markdown page under `heading` (a whole line, `## Using Drizzle`), up to the next heading of its level or above. */
export function markdownSection(markdown: string, heading: string): string {
  const lines = markdown.split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`The page has no heading "${heading}"`)
  const level = heading.indexOf(' ')
  let inCode = false
  let end = start + 1
  for (; end < lines.length; end++) {
    const line = lines[end] ?? ''
    if (line.startsWith('```')) inCode = !inCode
    const hashes = /^(#+) /.exec(line)?.[1]?.length
    if (!inCode && hashes !== undefined && hashes <= level) break
  }
  return lines.slice(start, end).join('\n')
}

/** Starts a long-running command; `stop()` ends it and its children. */
export function start(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): { readonly child: ChildProcess; readonly output: () => string; readonly stop: () => void } {
  const child = spawn(command, [...args], { cwd: options.cwd, env: userEnv(options.env), detached: true })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return {
    child,
    output: () => output,
    stop: () => {
      // The server runs under npx and tsx: end the whole process group this test started.
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM')
        } catch {
          // Already gone.
        }
      }
    },
  }
}

/** Waits until `url` answers 200, or fails with the server's output. */
export async function waitForOk(url: string, output: () => string, timeout = 60_000): Promise<void> {
  const until = Date.now() + timeout
  while (Date.now() < until) {
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 250))
  }
  throw new Error(`${url} did not answer within ${timeout} ms. Output:\n${output()}`)
}
