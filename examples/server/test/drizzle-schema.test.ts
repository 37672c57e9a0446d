/**
 * The Drizzle schema modules DATABASE_ADAPTER=drizzle serves with
 * (src/drizzle, drizzle-database.ts) are exactly what `gatehouse generate
 * --format drizzle` writes for this server's plugins, so adding a plugin or a
 * field without generating them again fails here. After such a change:
 * `npx vitest run --project example-server drizzle-schema -u`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../packages/core/src/cli/run.js'

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-example-drizzle-'))
process.env.GATEHOUSE_EXAMPLE_CLI_DB = join(dir, 'auth.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const config = resolve(__dirname, 'fixtures/gatehouse-config.ts')

describe('the committed Drizzle schema modules', () => {
  for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
    it(`match gatehouse generate --format drizzle --dialect ${dialect}`, async () => {
      let out = ''
      let err = ''
      const sink = { out: (text: string) => void (out += text), err: (text: string) => void (err += text), cwd: dir }
      expect(await runCli(['generate', '--config', config, '--format', 'drizzle', '--dialect', dialect], sink)).toBe(0)
      expect(err).toBe('')
      expect(out).toContain('export const organization = ')
      await expect(out).toMatchFileSnapshot(`../src/drizzle/auth-schema-${dialect}.ts`)
    })
  }
})
