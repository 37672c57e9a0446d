/**
 * @module
 * The CLI's logic, separate from its entry so tests can call it. A config
 * file in TypeScript needs a runtime that imports `.ts` (Node 22.6+ with type
 * stripping, or `node --import tsx`); core ships no loader of its own, to
 * keep its dependencies to the few the project allows.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AuthContext } from '../endpoint/context.js'
import { runCleanup } from '../cleanup/run-cleanup.js'
import { generateMigrations, runMigrations } from '../migrations/run-migrations.js'

const usage = `Usage: gatehouse <command> [--config <file>]

Commands:
  migrate    create or update the tables, columns and indexes of the schema
  generate   print the SQL that migrate would run, without running it
  cleanup    delete expired sessions, verification values, rate-limit counters and plugin rows

Options:
  --config <file>      module exporting the createAuth() result as \`auth\` or default
                       (default: the first of gatehouse.config.{js,mjs,cjs,ts}, src/auth.{js,mjs,ts}, auth.{js,mjs,ts})
  --output <file>      generate: write the SQL to a file instead of standard output
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

interface LoadedAuth {
  readonly $context: Promise<AuthContext>
  close?(): Promise<void>
}

export async function runCli(
  argv: readonly string[],
  io: { out: (text: string) => void; err: (text: string) => void; cwd: string } = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  },
): Promise<number> {
  const [command, ...rest] = argv
  if (command !== 'migrate' && command !== 'generate' && command !== 'cleanup') {
    io.err(usage)
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2
  }
  const flags = parseFlags(rest)
  const configPath = flags.config ? resolve(io.cwd, flags.config) : candidates.map((file) => resolve(io.cwd, file)).find((file) => existsSync(file))
  if (!configPath || !existsSync(configPath)) {
    io.err(`No auth module found. Pass --config <file>.\n\n${usage}`)
    return 2
  }
  const auth = await loadAuth(configPath)
  try {
    if (command === 'generate') {
      const { statements } = await generateMigrations(auth)
      const sql = statements.length === 0 ? '-- The database is up to date.\n' : `${statements.join(';\n\n')};\n`
      if (flags.output) {
        const { writeFile } = await import('node:fs/promises')
        await writeFile(resolve(io.cwd, flags.output), sql)
        io.out(`Wrote ${statements.length} statement(s) to ${flags.output}\n`)
      } else {
        io.out(sql)
      }
      return 0
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
    const { statements } = await runMigrations(auth)
    io.out(statements.length === 0 ? 'The database is up to date.\n' : `Applied ${statements.length} statement(s).\n`)
    return 0
  } finally {
    await auth.close?.()
  }
}

interface Flags {
  config?: string
  output?: string
  batchSize?: string
}

function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = {}
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]
    const value = args[index + 1]
    if ((arg === '--config' || arg === '-c') && value) {
      flags.config = value
      index++
    } else if (arg === '--output' && value) {
      flags.output = value
      index++
    } else if (arg === '--batch-size' && value) {
      flags.batchSize = value
      index++
    } else if (arg?.startsWith('--batch-size=')) flags.batchSize = arg.slice('--batch-size='.length)
    else if (arg?.startsWith('--config=')) flags.config = arg.slice('--config='.length)
    else if (arg?.startsWith('--output=')) flags.output = arg.slice('--output='.length)
  }
  return flags
}

async function loadAuth(file: string): Promise<LoadedAuth> {
  const loaded: Record<string, unknown> = await import(pathToFileURL(file).href)
  for (const candidate of [loaded.auth, loaded.default, (loaded.default as Record<string, unknown> | undefined)?.auth]) {
    if (isAuth(candidate)) return candidate
  }
  throw new Error(`${file} does not export a createAuth() result as \`auth\` or default.`)
}

function isAuth(value: unknown): value is LoadedAuth {
  return typeof value === 'object' && value !== null && '$context' in value && 'handler' in value
}
