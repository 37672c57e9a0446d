/**
 * The generated module for a schema with every kind of field and reference
 * core allows and names other tools trip on (packages/core/test/varied-schema.ts:
 * a field starting with a digit, a model named `audit-entry`, on PostgreSQL
 * a table in the schema `app`), migrated by drizzle-kit on each database and
 * used through the adapter: every value round-trips, and deleting the user
 * cascades through the foreign keys. Its column named with quote characters
 * is left out: drizzle-kit writes such names into its SQL unescaped
 * (docs/adapters.md#migrations-with-drizzle-kit).
 */
import type { Row, Schema } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { variedSchema } from '../../core/test/varied-schema.js'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, dialects, type DrizzleBackend } from './databases.js'

const at = new Date('2026-05-06T07:08:09.123Z')
const QUOTED = 'odd "name`'

function withoutQuotedName(schema: Schema): Schema {
  const note = schema.note
  if (!note) throw new Error('the varied schema has no note')
  return { ...schema, note: { ...note, fields: Object.fromEntries(Object.entries(note.fields).filter(([field]) => field !== QUOTED)) } }
}

for (const { dialect, enabled } of dialects) {
  describe.skipIf(!enabled)(`the varied schema on ${dialect}`, () => {
    const schema = withoutQuotedName(variedSchema(dialect === 'postgres' ? {} : { tableName: 'notes' }))
    let backend: DrizzleBackend | undefined
    beforeAll(async () => {
      backend = await createDrizzleBackend(dialect, schema)
    })
    afterAll(async () => {
      await backend?.drop()
    })

    it('migrates with drizzle-kit, stores every field and cascades deletes', async () => {
      if (!backend) throw new Error('no backend')
      const adapter = createDrizzleAdapter(backend.db, { provider: backend.provider, schema: backend.tables }, schema)
      await adapter.create({ model: 'user', data: { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: true, image: null, createdAt: at, updatedAt: at } })
      const note: Row = {
        id: 'n1',
        title: 'First',
        slug: 'first',
        views: 1.5,
        size: 2 ** 40 + 1,
        pinned: true,
        data: { list: [1, 'two'], nested: { ok: true } },
        seenAt: at,
        ownerId: 'u1',
        editorId: 'u1',
        reviewerId: null,
        parentId: null,
        parentSlug: null,
        '2fa': false,
      }
      expect(await adapter.create({ model: 'note', data: note })).toEqual(note)
      await adapter.create({ model: 'note', data: { ...note, id: 'n2', slug: 'second', title: 'Second', parentId: 'n1', parentSlug: 'first' } })
      await adapter.create({ model: 'audit-entry', data: { id: 'a1', noteId: 'n1' } })
      const first = await adapter.findOne({ model: 'note', where: [{ field: '2fa', value: false }, { field: 'id', value: 'n1' }], join: { parent: { model: 'note', on: { field: 'parentSlug', references: 'slug' } } } })
      expect(first).toMatchObject({ id: 'n1', parent: null })
      expect(await adapter.findOne({ model: 'note', where: { field: 'id', value: 'n2' }, join: { parent: { model: 'note', on: { field: 'parentId', references: 'id' } } } })).toMatchObject({ parent: note })
      await expect(adapter.create({ model: 'note', data: { ...note, id: 'n3', slug: 'third' } })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      // `parentId` has no ON DELETE: MySQL refuses to delete a row another still points at, even in one cascade.
      await adapter.update({ model: 'note', where: { field: 'id', value: 'n2' }, update: { parentId: null } })
      await adapter.delete({ model: 'user', where: { field: 'id', value: 'u1' } })
      expect(await adapter.count({ model: 'note' })).toBe(0)
      expect(await adapter.count({ model: 'audit-entry' })).toBe(0)
    })
  })
}
