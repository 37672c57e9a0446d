/**
 * `gatehouse generate --format prisma` (docs/adapters.md#using-prisma), for
 * core with every first-party plugin and additional fields: Prisma's own
 * `prisma validate` accepts the output on each dialect, as it does for a
 * schema holding every kind of field, reference and name core allows. It
 * lives here because the example server is the package that depends on
 * every plugin.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { coreSchema, mergeSchemas, type GatehousePlugin } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prismaSchema } from '../../../packages/core/src/cli/generate-prisma.js'
import { variedSchema } from '../../../packages/core/test/varied-schema.js'
import { firstPartyPlugins } from './first-party-plugins.js'

const plugins: readonly GatehousePlugin[] = firstPartyPlugins()

/** As createAuth merges it (auth/config.ts), with additional user fields, one of them renamed in the database. */
const schema = mergeSchemas(coreSchema, ...plugins.map((plugin) => plugin.schema), {
  user: {
    fields: {
      plan: { type: 'string', required: false, columnName: 'plan_name' },
      credits: { type: 'number', bigint: true, defaultValue: 0 },
    },
  },
})

const prismaCli = join(dirname(createRequire(import.meta.url).resolve('prisma/package.json')), 'build/index.js')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-prisma-'))
  // `prisma validate` checks the schema in WebAssembly and never starts the
  // schema engine, but the CLI downloads the engine first unless this path names one.
  await writeFile(join(dir, 'schema-engine-unused'), '')
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs `prisma <command> --schema <file>` on `text` in a file; resolves with its output, rejects with Prisma's errors. */
async function prisma(command: 'validate' | 'format', text: string, name: string): Promise<{ output: string; file: string }> {
  const file = join(dir, `${name}.prisma`)
  await writeFile(file, text)
  const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: join(dir, 'schema-engine-unused'), CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' }
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [prismaCli, command, '--schema', file], { cwd: dir, env })
  return { output: stdout + stderr, file }
}

async function validate(text: string, name: string): Promise<string> {
  return (await prisma('validate', text, name)).output
}

describe('prismaSchema with every first-party plugin', () => {
  for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
    it(`passes prisma validate (${dialect})`, async () => {
      const output = await validate(prismaSchema(schema, dialect), dialect)
      expect(output).toContain('is valid')
    })
  }

  it('fails prisma validate when a relation loses its back side, so the check above can fail', async () => {
    const text = prismaSchema(schema, 'sqlite').replace(/^ {2}sessions +Session\[\]\n/m, '')
    await expect(validate(text, 'broken')).rejects.toThrow(/missing an opposite relation field/)
  })

  it('keeps the constraints, names and types the migration creates', () => {
    const postgres = prismaSchema(schema, 'postgres')
    expect(Object.keys(schema)).toEqual(expect.arrayContaining(['organizationRole', 'teamMember', 'twoFactor', 'passkey', 'oauthApplication', 'jwks', 'billingEvent', 'ssoProvider', 'scimToken', 'scimUser', 'scimGroup']))
    expect(postgres.match(/^model /gm)).toHaveLength(Object.keys(schema).length)
    expect(postgres).toContain('provider = "postgresql"')
    expect(postgres).toContain('@@unique([organizationId, role], map: "organizationRole_organizationId_role_uniq")')
    expect(postgres).toMatch(/^ {2}email +String +@unique\(map: "user_email_uniq"\)$/m)
    expect(postgres).toMatch(/^ {2}plan +String\? +@map\("plan_name"\)$/m)
    expect(postgres).toMatch(/^ {2}credits +BigInt$/m)
    expect(postgres).toMatch(/^ {2}createdAt +DateTime +@db\.Timestamptz\(6\)$/m)
    expect(postgres).toContain('@@unique([organizationId, userId], map: "member_organizationId_userId_uniq")')
    expect(postgres).toContain('@@index([userId], map: "session_userId_idx")')
    expect(postgres).toMatch(
      /^ {2}user +User +@relation\(fields: \[userId\], references: \[id\], onDelete: Cascade, onUpdate: NoAction, map: "session_userId_fk"\)$/m,
    )
    expect(postgres).toContain('@@map("rateLimit")')
    const mysql = prismaSchema(schema, 'mysql')
    expect(mysql).toMatch(/^ {2}id +String +@id @db\.VarChar\(255\)$/m)
    expect(mysql).toMatch(/^ {2}slug +String +@unique\(map: "organization_slug_uniq"\) @db\.VarChar\(255\)$/m)
    expect(mysql).toMatch(/^ {2}metadata +String\? +@db\.LongText$/m)
  })
})

describe('prismaSchema with every kind of field and reference', () => {
  for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
    it(`passes prisma validate (${dialect})`, async () => {
      const output = await validate(prismaSchema(variedSchema({ tableName: 'notes' }), dialect), `varied-${dialect}`)
      expect(output).toContain('is valid')
    })
  }

  it('is laid out as prisma format lays it out', async () => {
    for (const dialect of ['postgres', 'mysql'] as const) {
      const text = prismaSchema(variedSchema({ tableName: 'notes' }), dialect)
      const { file } = await prisma('format', text, `format-${dialect}`)
      expect(await readFile(file, 'utf8')).toBe(text)
    }
  })

  it('passes prisma validate with a table in another PostgreSQL schema', async () => {
    const text = prismaSchema(variedSchema(), 'postgres')
    expect(text).toContain('schemas  = ["app", "public"]')
    expect(await validate(text, 'varied-schemas')).toContain('is valid')
  })
})
