/**
 * `gatehouse migrate` through the Drizzle adapter on an empty database: it
 * says that drizzle-kit owns the migrations, prints the commands, exits 0
 * and creates nothing (docs/adapters.md#using-drizzle).
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { coreSchema } from '@gatehouse/core'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../core/src/cli/run.js'
import { createDrizzleBackend, type DrizzleBackend } from './databases.js'

describe('gatehouse migrate through drizzleAdapter', () => {
  let backend: DrizzleBackend | undefined
  afterAll(async () => {
    await backend?.drop()
  })

  it('names drizzle-kit, exits 0 and leaves the empty database empty', async () => {
    backend = await createDrizzleBackend('sqlite', coreSchema)
    const dir = resolve(backend.location, '..')
    const empty = join(dir, 'empty.db')
    writeFileSync(
      join(dir, 'auth.ts'),
      [
        "import Database from 'better-sqlite3'",
        "import { drizzle } from 'drizzle-orm/better-sqlite3'",
        "import { createAuth } from '@gatehouse/core'",
        `import { drizzleAdapter } from ${JSON.stringify(resolve(__dirname, '../src/index.js'))}`,
        "import * as schema from './auth-schema.js'",
        `const db = drizzle(new Database(${JSON.stringify(empty)}))`,
        'export const auth = createAuth({',
        "  baseURL: 'http://localhost:3000',",
        "  secret: 'cli-test-secret-0123456789abcdefghijkl',",
        "  database: drizzleAdapter(db, { provider: 'sqlite', schema }),",
        '  logger: { disabled: true },',
        '})',
      ].join('\n'),
    )
    const io = { out: '', err: '' }
    const code = await runCli(['migrate', '--config', join(dir, 'auth.ts')], { out: (text) => void (io.out += text), err: (text) => void (io.err += text), cwd: dir })
    expect({ code, ...io }).toEqual({
      code: 0,
      out: [
        'Gatehouse does not migrate the database through the drizzle-sqlite adapter: nothing was changed.',
        'Its tables belong to your drizzle-kit migrations (docs/adapters.md#using-drizzle):',
        '  npx gatehouse generate --format drizzle --output <your auth schema module>',
        '  npx drizzle-kit generate',
        '  npx drizzle-kit migrate',
        '',
      ].join('\n'),
      err: '',
    })
    const raw = new Database(empty)
    expect(raw.prepare("select name from sqlite_master where type = 'table'").all()).toEqual([])
    raw.close()
  })
})
