/**
 * A schema holding every kind of field and reference core allows, names
 * that need quoting or are not identifiers in other tools, and a one-to-one
 * reference: for the tests of what is written from a schema (CREATE TABLE,
 * the Prisma output).
 */
import { coreSchema, mergeSchemas, type Schema } from '../src/db/schema.js'

/**
 * @example
 * variedSchema() // `note` in the table "app"."notes"
 * variedSchema({ tableName: 'notes' }) // for a backend without schemas
 */
export function variedSchema({ tableName = 'app.notes' }: { tableName?: string } = {}): Schema {
  return mergeSchemas(coreSchema, {
    note: {
      tableName,
      fields: {
        title: { type: 'string', columnName: 'note_title' },
        slug: { type: 'string', unique: true },
        views: { type: 'number' },
        size: { type: 'number', bigint: true, required: false },
        pinned: { type: 'boolean', defaultValue: false },
        data: { type: 'json', required: false },
        seenAt: { type: 'date', required: false },
        ownerId: { type: 'string', index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
        editorId: { type: 'string', required: false, references: { model: 'user', field: 'id', onDelete: 'set null' } },
        reviewerId: { type: 'string', required: false, references: { model: 'user', field: 'id', onDelete: 'restrict' } },
        parentId: { type: 'string', required: false, references: { model: 'note', field: 'id' } },
        parentSlug: { type: 'string', required: false, references: { model: 'note', field: 'slug', onDelete: 'set null' } },
        'odd "name`': { type: 'string', required: false },
        '2fa': { type: 'boolean', required: false },
      },
      unique: [['ownerId', 'title']],
    },
    'audit-entry': {
      fields: { noteId: { type: 'string', unique: true, references: { model: 'note', field: 'id', onDelete: 'cascade' } } },
    },
  })
}
