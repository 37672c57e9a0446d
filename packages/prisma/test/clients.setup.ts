/**
 * Vitest global setup: the Prisma Clients the tests run on, made the way an
 * application makes its own (docs/adapters.md#using-prisma):
 * `gatehouse generate --format prisma` writes the schema, and this package's
 * `prisma generate` (the real CLI, offline) writes the client into
 * `test/.generated/<dialect>-<schema>/client` (paths.ts), a git-ignored
 * folder inside this package so the generated code resolves
 * `@prisma/client` from here.
 *
 * `prisma generate` runs no engine, but the CLI downloads the schema engine
 * before any command unless PRISMA_SCHEMA_ENGINE_BINARY names one; this
 * machine reaches no host but the npm registry, so it names an empty file.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { prismaSchema } from '../../core/src/cli/generate-prisma.js'
import { GENERATED, TEST_SCHEMAS, clientDir, type TestDialect, type TestSchemaName } from './paths.js'

const DIALECTS: readonly TestDialect[] = ['sqlite', 'postgres', 'mysql']

export default async function setup(): Promise<void> {
  rmSync(GENERATED, { recursive: true, force: true })
  mkdirSync(GENERATED, { recursive: true })
  const engine = join(GENERATED, 'schema-engine-unused')
  writeFileSync(engine, '')
  const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: engine, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' }
  const cli = resolve(__dirname, '..', 'node_modules', 'prisma', 'build', 'index.js')
  const generate = async (dialect: TestDialect, name: TestSchemaName) => {
    const out = clientDir(dialect, name)
    const file = join(out, '..', 'schema.prisma')
    mkdirSync(out, { recursive: true })
    // The generator's output path is relative to the schema file.
    writeFileSync(file, prismaSchema(TEST_SCHEMAS[name], dialect).replace('output   = "../generated/prisma"', 'output   = "./client"'))
    await promisify(execFile)(process.execPath, [cli, 'generate', '--schema', file], { cwd: join(out, '..'), env })
  }
  await Promise.all(DIALECTS.flatMap((dialect) => (Object.keys(TEST_SCHEMAS) as TestSchemaName[]).map((name) => generate(dialect, name))))
}

export function teardown(): void {
  rmSync(GENERATED, { recursive: true, force: true })
}
