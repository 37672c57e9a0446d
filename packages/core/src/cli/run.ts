/**
 * @module
 * The CLI's logic, separate from its entry so tests can call it. A config
 * file in TypeScript is loaded with the project's own `tsx` when it has one
 * (docs/getting-started.md, on Node 20), or by a runtime that imports `.ts`
 * itself (Node 23.6+); core ships no loader of its own, to keep its
 * dependencies to the few the project allows.
 */
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AdapterFactory } from '../db/adapter.js'
import type { Schema } from '../db/schema.js'
import type { AuthContext } from '../endpoint/context.js'
import { runCleanup } from '../cleanup/run-cleanup.js'
import { generateMigrations, runMigrations } from '../migrations/run-migrations.js'
import { drizzleSchema } from './generate-drizzle.js'
import { prismaSchema } from './generate-prisma.js'

const usage = `Usage: gatehouse <command> [--config <file>]

Commands:
  migrate    create or update the tables, columns and indexes of the schema
  generate   print the SQL that migrate would run, without running it;
             or, with --format drizzle|prisma, the schema for that ORM to migrate with
  cleanup    delete expired sessions, verification values, rate-limit counters and plugin rows

Options:
  --config <file>      module exporting the createAuth() result as \`auth\` or default
                       (default: the first of gatehouse.config.{js,mjs,cjs,ts}, src/auth.{js,mjs,ts}, auth.{js,mjs,ts})
  --output <file>      generate: write to a file instead of standard output
  --format <format>    generate: sql (default), drizzle (a Drizzle schema module) or prisma (a schema.prisma)
  --dialect <dialect>  generate --format drizzle|prisma: postgres, mysql or sqlite
                       (default: the configured adapter's, when it names one)
  --batch-size <rows>  cleanup: rows deleted per statement (default 500)
`

const candidates = [
  'gatehouse.config.js',
  'gatehouse.config.mjs',
  'gatehouse.config.cjs',
  'gatehouse.config.ts',
  'src/auth.js',
  'src/auth.mjs',
  'src/auth.ts',
  'auth.js',
  'auth.mjs',
  'auth.ts',
]

interface Io {
  out: (text: string) => void
  err: (text: string) => void
  cwd: string
}

interface LoadedAuth {
  readonly $context: Promise<AuthContext>
  readonly $schema: Schema
  readonly options: { readonly database?: AdapterFactory | string | undefined }
  close?(): Promise<void>
}

export async function runCli(
  argv: readonly string[],
  io: Io = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  },
): Promise<number> {
  const [command, ...rest] = argv
  // Asked-for help is the answer (stdout, exit 0, so `gatehouse --help | less` works); otherwise usage explains a mistake (stderr).
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(usage)
    return 0
  }
  if (command !== 'migrate' && command !== 'generate' && command !== 'cleanup') {
    io.err(usage)
    return command === undefined ? 0 : 2
  }
  const flags = parseFlags(rest)
  const configPath = flags.config ? resolve(io.cwd, flags.config) : candidates.map((file) => resolve(io.cwd, file)).find((file) => existsSync(file))
  if (flags.config && configPath && !existsSync(configPath)) {
    io.err(`The config file ${configPath} does not exist (--config ${flags.config}).\n`)
    return 2
  }
  if (!configPath) {
    io.err(`No auth module found in ${io.cwd}. Pass --config <file>.\n\n${usage}`)
    return 2
  }
  const placeholder = await writePlaceholder(command, flags, io.cwd)
  let auth: LoadedAuth
  try {
    auth = await loadAuth(configPath, flags)
  } catch (error) {
    await placeholder.remove()
    throw error
  }
  try {
    if (command === 'generate') {
      const code = await generate(auth, flags, io)
      if (code !== 0) await placeholder.remove()
      return code
    }
    if (command === 'cleanup') {
      const batchSize = flags.batchSize === undefined ? undefined : Number(flags.batchSize)
      if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1)) {
        io.err('--batch-size must be a positive integer\n')
        return 2
      }
      const { deleted } = await runCleanup(await auth.$context, { batchSize })
      for (const [model, count] of Object.entries(deleted)) io.out(`${model}: ${count} deleted\n`)
      return 0
    }
    const { statements, applied } = await runMigrations(auth)
    // An adapter without `migrate` (Drizzle's, the memory one) leaves the schema to the application: say so, change nothing.
    if (!applied) {
      io.out(await notMigrated(auth))
      return 0
    }
    io.out(statements.length === 0 ? 'The database is up to date.\n' : `Applied ${statements.length} statement(s).\n`)
    return 0
  } catch (error) {
    await placeholder.remove()
    throw error
  } finally {
    await auth.close?.()
  }
}

/**
 * `generate --format drizzle --output <file>` on a first run: the auth module
 * imports the schema module this command is about to write (docs/adapters.md#set-up),
 * so an empty module is written there before the auth module is loaded, and
 * removed again if generating fails. An existing file is left as it is: the
 * adapter is never bound while generating, so an outdated module loads fine.
 */
async function writePlaceholder(command: string, flags: Flags, cwd: string): Promise<{ remove(): Promise<void> }> {
  const file = flags.output === undefined ? undefined : resolve(cwd, flags.output)
  if (command !== 'generate' || flags.format !== 'drizzle' || file === undefined || existsSync(file)) return { remove: async () => {} }
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, '// Written by `gatehouse generate --format drizzle` while it runs: replaced by the schema module.\nexport {}\n')
  return { remove: () => rm(file, { force: true }) }
}

const DIALECTS = ['postgres', 'mysql', 'sqlite'] as const
type Dialect = (typeof DIALECTS)[number]

/** `generate`: the SQL migrate would run, or a schema for the application's ORM (`--format`). */
/**
 * What `gatehouse migrate` prints when the adapter does not migrate: its
 * tables belong to the application's own migrations, which for Drizzle is
 * drizzle-kit (docs/adapters.md#using-drizzle). Exit 0: nothing failed.
 */
async function notMigrated(auth: LoadedAuth): Promise<string> {
  const { adapter } = await auth.$context
  const lines = [`Gatehouse does not migrate the database through the ${adapter.id} adapter: nothing was changed.`]
  if (adapter.id.startsWith('drizzle-')) {
    lines.push(
      'Its tables belong to your drizzle-kit migrations (docs/adapters.md#using-drizzle):',
      '  npx gatehouse generate --format drizzle --output <your auth schema module>',
      '  npx drizzle-kit generate',
      '  npx drizzle-kit migrate',
    )
  }
  return `${lines.join('\n')}\n`
}

async function generate(auth: LoadedAuth, flags: Flags, io: Io): Promise<number> {
  const format = flags.format ?? 'sql'
  if (format !== 'sql' && format !== 'drizzle' && format !== 'prisma') {
    io.err(`--format must be sql, drizzle or prisma, not "${format}"\n`)
    return 2
  }
  let text: string
  let summary: string
  if (format === 'sql') {
    const { statements } = await generateMigrations(auth)
    text = statements.length === 0 ? '-- The database is up to date.\n' : `${statements.join(';\n\n')};\n`
    summary = `${statements.length} statement(s)`
  } else {
    // The schema alone, never the database: the adapter may need the very module this writes (docs/adapters.md#set-up).
    const schema = auth.$schema
    const dialect = flags.dialect ?? configuredDialect(auth.options.database)
    if (dialect === undefined || !isDialect(dialect)) {
      io.err(`--format ${format} needs --dialect postgres, mysql or sqlite${flags.dialect ? `, not "${flags.dialect}"` : ''}\n`)
      return 2
    }
    text = format === 'drizzle' ? drizzleSchema(schema, dialect) : prismaSchema(schema, dialect)
    summary = `the ${format} schema (${dialect}, ${Object.keys(schema).length} tables)`
  }
  if (!flags.output) {
    io.out(text)
    return 0
  }
  await writeFile(resolve(io.cwd, flags.output), text)
  io.out(`Wrote ${summary} to ${flags.output}\n`)
  return 0
}

/** The dialect of the `database` option, read from the factory (`drizzleAdapter`, `postgresAdapter`, …) or a SQLite path. */
function configuredDialect(database: AdapterFactory | string | undefined): Dialect | undefined {
  if (typeof database === 'string') return 'sqlite'
  return database?.dialect
}

function isDialect(name: string): name is Dialect {
  return (DIALECTS as readonly string[]).includes(name)
}

interface Flags {
  config?: string
  output?: string
  batchSize?: string
  format?: string
  dialect?: string
}

/** Options that take a value, as `--name value` or `--name=value`. */
const VALUE_FLAGS: Readonly<Record<string, keyof Flags>> = {
  '--config': 'config',
  '-c': 'config',
  '--output': 'output',
  '--batch-size': 'batchSize',
  '--format': 'format',
  '--dialect': 'dialect',
}

function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = {}
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? ''
    const equals = arg.indexOf('=')
    const name = arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg
    const flag = VALUE_FLAGS[name]
    if (!flag) continue
    if (name !== arg) flags[flag] = arg.slice(equals + 1)
    else if (args[index + 1]) flags[flag] = args[++index]
  }
  return flags
}

async function loadAuth(file: string, flags: Flags): Promise<LoadedAuth> {
  if (/\.[cm]?ts$/.test(file)) await registerTsx(file)
  let loaded: Record<string, unknown>
  try {
    loaded = await import(pathToFileURL(file).href)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new Error(`${file} is TypeScript, which Node ${process.versions.node} cannot import on its own: install tsx in the project (npm install -D tsx), or point --config at a JavaScript file.`, { cause: error })
    }
    if (code === 'ERR_MODULE_NOT_FOUND' && flags.format === 'drizzle') {
      // The first run, with the schema module's path not given as --output: name the way out, not this command again.
      throw new Error(
        `${errorMessage(error)}\nIf that is the Drizzle schema module this command writes, pass its path as --output (for './db/auth-schema.js' imported from src/auth.ts: --output src/db/auth-schema.ts) and it is created first (docs/adapters.md#set-up).`,
        { cause: error },
      )
    }
    throw error
  }
  for (const candidate of [loaded.auth, loaded.default, (loaded.default as Record<string, unknown> | undefined)?.auth]) {
    if (isAuth(candidate)) return candidate
  }
  throw new Error(`${file} does not export a createAuth() result as \`auth\` or default.`)
}

/**
 * Registers tsx's loader, resolved from the config file's project (never
 * core's own dependencies), so `gatehouse migrate` reads `src/auth.ts` on
 * Node 20 as the application's `tsx src/server.ts` does. Without tsx, the
 * import is left to Node.
 */
async function registerTsx(file: string): Promise<void> {
  let loader: string
  try {
    // The package's main entry is the module `node --import tsx` loads: importing it registers the hooks.
    loader = createRequire(file).resolve('tsx')
  } catch {
    return
  }
  await import(pathToFileURL(loader).href)
}

function isAuth(value: unknown): value is LoadedAuth {
  return typeof value === 'object' && value !== null && '$context' in value && '$schema' in value && 'handler' in value
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
