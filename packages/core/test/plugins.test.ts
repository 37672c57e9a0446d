import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAuth } from '../src/auth/create-auth.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { AuthError, defineErrors } from '../src/errors/catalogue.js'
import { generateMigrations, runMigrations } from '../src/migrations/run-migrations.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

const NoteErrors = defineErrors({
  NOTE_TOO_RUDE: { status: 422, message: 'Note is too rude' },
})

const requireAuthor = async (ctx: { headers: Headers }) => {
  const author = ctx.headers.get('x-author')
  if (!author) throw new AuthError({ code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' })
  return { author }
}

const createNote = defineEndpoint({
  method: 'POST',
  path: '/notes/create',
  body: z.object({ text: z.string().min(1) }),
  use: [requireAuthor],
  handler: async ({ body, db, author }) => {
    if (body.text.includes('rude')) throw new AuthError(NoteErrors.NOTE_TOO_RUDE)
    return db.create({ model: 'note', data: { text: body.text, author } })
  },
})

const listNotes = defineEndpoint({
  method: 'GET',
  path: '/notes/list',
  handler: ({ db }) => db.findMany({ model: 'note', sortBy: { field: 'text', direction: 'asc' } }),
})

function notesPlugin(events: string[] = []) {
  return definePlugin({
    id: 'notes',
    schema: {
      note: {
        fields: {
          text: { type: 'string' },
          author: { type: 'string', index: true },
          pinned: { type: 'boolean', defaultValue: false },
          createdAt: { type: 'date' },
        },
      },
    },
    endpoints: { createNote, listNotes },
    errors: NoteErrors,
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === '/notes/create',
          handler: (ctx) => {
            const body = ctx.body as { text: string }
            return { body: { ...body, text: body.text.trim() } }
          },
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === '/notes/list',
          handler: ({ returned }) => ({ returned: { notes: returned } }),
        },
      ],
    },
    databaseHooks: {
      note: {
        create: {
          before: (data) => {
            if (data.text === 'veto') throw new AuthError(NoteErrors.NOTE_TOO_RUDE)
            return { data: { ...data, text: String(data.text).toUpperCase() } }
          },
          after: (row) => {
            events.push(`created:${String(row.text)}`)
          },
        },
      },
    },
    init: () => {
      events.push('init')
    },
  })
}

describe('a plugin adds a table, an endpoint, hooks and errors', () => {
  const events: string[] = []
  const auth = testAuth({ plugins: [notesPlugin(events)], rateLimit: { enabled: false } })
  const create = (text: string, author = 'ada') =>
    auth.handler(request('/api/auth/notes/create', { json: { text }, headers: { 'x-author': author } }))

  it('runs init once, then serves the endpoint through middleware and hooks', async () => {
    const response = await create('  hello  ')
    expect(response.status).toBe(200)
    const note = await response.json()
    expect(note).toMatchObject({ text: 'HELLO', author: 'ada', pinned: false })
    expect(typeof note.id).toBe('string')
    expect(note.id.length).toBeGreaterThanOrEqual(32)
    expect(events).toEqual(['init', 'created:HELLO'])
  })

  it('middleware can refuse the call', async () => {
    const response = await auth.handler(request('/api/auth/notes/create', { json: { text: 'x' } }))
    expect(response.status).toBe(401)
  })

  it("answers the plugin's own catalogue errors with their status", async () => {
    const response = await create('so rude')
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ code: 'NOTE_TOO_RUDE', message: 'Note is too rude' })
  })

  it('a database before-hook vetoes the write: nothing stored, no after-hook', async () => {
    const before = events.length
    const response = await create('veto')
    expect(response.status).toBe(422)
    const { adapter } = await auth.$context
    expect(await adapter.count({ model: 'note', where: { field: 'text', value: 'VETO' } })).toBe(0)
    expect(await adapter.count({ model: 'note', where: { field: 'text', value: 'veto' } })).toBe(0)
    expect(events.length).toBe(before)
  })

  it('after-hooks replace the result', async () => {
    const response = await auth.handler(request('/api/auth/notes/list'))
    const body = await response.json()
    expect(Object.keys(body)).toEqual(['notes'])
    expect(body.notes.map((note: { text: string }) => note.text)).toEqual(['HELLO'])
  })

  it('database after-hooks run only after the transaction commits', async () => {
    const { db } = await auth.$context
    const before = events.length
    await expect(
      db.transaction(async (tx) => {
        await tx.create({ model: 'note', data: { text: 'inside', author: 'ada' } })
        expect(events.length).toBe(before)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(events.length).toBe(before)
    expect(await db.count({ model: 'note', where: { field: 'text', value: 'INSIDE' } })).toBe(0)

    await db.transaction(async (tx) => {
      await tx.create({ model: 'note', data: { text: 'kept', author: 'ada' } })
      expect(events.length).toBe(before)
    })
    expect(events.slice(before)).toEqual(['created:KEPT'])
  })
})

describe('migrations create the plugin table on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-plugin-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('generate lists the CREATE TABLE, migrate applies it, and a second run has nothing to do', async () => {
    const file = join(dir, 'auth.db')
    const auth = createAuth({
      baseURL: 'http://localhost:3000',
      secret: 'x'.repeat(40),
      database: sqliteAdapter(file),
      plugins: [notesPlugin()],
      logger: { disabled: true },
      rateLimit: { enabled: false },
    })
    const planned = await generateMigrations(auth)
    expect(planned.applied).toBe(false)
    expect(planned.statements.some((sql) => /create table "note"/i.test(sql))).toBe(true)
    expect(planned.statements.some((sql) => /create table "user"/i.test(sql))).toBe(true)

    const applied = await runMigrations(auth)
    expect(applied.applied).toBe(true)
    expect((await runMigrations(auth)).statements).toEqual([])

    const response = await auth.handler(request('/api/auth/notes/create', { json: { text: 'stored' }, headers: { 'x-author': 'bo' } }))
    expect(response.status).toBe(200)
    await auth.close()

    const raw = new Database(file, { readonly: true })
    const columns = raw.prepare('pragma table_info("note")').all() as Array<{ name: string }>
    expect(columns.map((column) => column.name).sort()).toEqual(['author', 'createdAt', 'id', 'pinned', 'text'])
    expect(raw.prepare('select text, author from "note"').all()).toEqual([{ text: 'STORED', author: 'bo' }])
    raw.close()
  })
})
