/**
 * The Prisma output's mapping from the schema; examples/server/test/prisma-schema.test.ts
 * runs `prisma validate` on it for every first-party plugin.
 */
import { describe, expect, it } from 'vitest'
import { coreSchema, mergeSchemas } from '../db/schema.js'
import { applyNaming } from '../db/naming.js'
import { columnTypeName } from '../db/kysely/column-types.js'
import { prismaSchema } from './generate-prisma.js'
import { lookup, nameSchema } from '../db/prisma-names.js'
import { variedSchema } from '../../test/varied-schema.js'

const schema = mergeSchemas(variedSchema({ tableName: 'note' }), {
  note: { fields: { body: { type: 'string' } } },
  string: {
    fields: { noteId: { type: 'string', unique: true, references: { model: 'note', field: 'id', onDelete: 'cascade' } } },
  },
})

/** The line declaring `field` in `model`'s block, spaces collapsed. */
function line(text: string, model: string, field: string): string | undefined {
  const block = text.split('\n\n').find((part) => part.startsWith(`model ${model} {`)) ?? ''
  return block
    .split('\n')
    .map((row) => row.trim().replace(/ +/g, ' '))
    .find((row) => row.startsWith(`${field} `))
}

describe('prismaSchema', () => {
  it('names the provider of each dialect', () => {
    expect(prismaSchema(coreSchema, 'postgres')).toContain('provider = "postgresql"')
    expect(prismaSchema(coreSchema, 'mysql')).toContain('provider = "mysql"')
    expect(prismaSchema(coreSchema, 'sqlite')).toContain('provider = "sqlite"')
  })

  it('maps each model to its table and each renamed or invalid field name to its column', () => {
    const text = prismaSchema(schema, 'postgres')
    expect(text).toContain('model RateLimit {')
    expect(text).toContain('@@map("rateLimit")')
    expect(line(text, 'Note', 'title')).toBe('title String @map("note_title")')
    expect(line(text, 'Note', 'oddName')).toBe('oddName String? @map("odd \\"name`")')
    expect(line(text, 'Note', 'field2fa')).toBe('field2fa Boolean? @map("2fa")')
    expect(text).toContain('model AuditEntry {')
    expect(text).toContain('@@map("audit-entry")')
    // `String` is Prisma's own type: the model takes another name and keeps its table.
    expect(text).toContain('model StringModel {')
    expect(text).toContain('@@map("string")')
  })

  it('gives each relation its onDelete, and no action where the schema sets none', () => {
    const text = prismaSchema(schema, 'postgres')
    expect(line(text, 'Note', 'owner')).toBe(
      'owner User @relation("NoteOwner", fields: [ownerId], references: [id], onDelete: Cascade, onUpdate: NoAction, map: "note_ownerId_fk")',
    )
    expect(line(text, 'Note', 'editor')).toContain('onDelete: SetNull')
    expect(line(text, 'Note', 'reviewer')).toContain('onDelete: Restrict')
    expect(line(text, 'Note', 'parent')).toBe(
      'parent Note? @relation("NoteParent", fields: [parentId], references: [id], onDelete: NoAction, onUpdate: NoAction, map: "note_parentId_fk")',
    )
  })

  it('adds the other side of each relation, named by the referencing field where two relations join a pair', () => {
    const text = prismaSchema(schema, 'postgres')
    expect(line(text, 'User', 'sessions')).toBe('sessions Session[]')
    expect(line(text, 'User', 'notesByOwner')).toBe('notesByOwner Note[] @relation("NoteOwner")')
    expect(line(text, 'User', 'notesByEditor')).toBe('notesByEditor Note[] @relation("NoteEditor")')
    expect(line(text, 'Note', 'notesByParent')).toBe('notesByParent Note[] @relation("NoteParent")')
    // A unique reference is one-to-one: the other side holds at most one row.
    expect(line(text, 'Note', 'stringModel')).toBe('stringModel StringModel?')
    expect(line(text, 'Note', 'auditEntry')).toBe('auditEntry AuditEntry?')
    // A reference to a unique field other than the id.
    expect(line(text, 'Note', 'parentSlugRef')).toBe(
      'parentSlugRef Note? @relation("NoteParentSlugRef", fields: [parentSlug], references: [slug], onDelete: SetNull, onUpdate: NoAction, map: "note_parentSlug_fk")',
    )
  })

  it('declares the indexes and unique constraints under the names the migration gives them', () => {
    const text = prismaSchema(schema, 'postgres')
    expect(line(text, 'User', 'email')).toBe('email String @unique(map: "user_email_uniq")')
    expect(text).toContain('@@index([ownerId], map: "note_ownerId_idx")')
    expect(text).toContain('@@unique([ownerId, title], map: "note_ownerId_note_title_uniq")')
  })

  it('uses the column types of the migration on each dialect', () => {
    const postgres = prismaSchema(schema, 'postgres')
    expect(line(postgres, 'User', 'createdAt')).toBe('createdAt DateTime @db.Timestamptz(6)')
    expect(line(postgres, 'RateLimit', 'lastRequest')).toBe('lastRequest BigInt')
    expect(line(postgres, 'Note', 'views')).toBe('views Float')
    expect(line(postgres, 'Note', 'data')).toBe('data String?')
    const mysql = prismaSchema(schema, 'mysql')
    expect(line(mysql, 'Note', 'id')).toBe('id String @id @db.VarChar(255)')
    // Keys are VARCHAR(255) on MySQL, other strings TEXT (column-types.ts).
    expect(line(mysql, 'Note', 'title')).toBe('title String @map("note_title") @db.VarChar(255)')
    expect(line(mysql, 'Note', 'body')).toBe('body String @db.Text')
    expect(line(mysql, 'Note', 'data')).toBe('data String? @db.LongText')
    expect(line(mysql, 'User', 'createdAt')).toBe('createdAt DateTime @db.DateTime(3)')
    const sqlite = prismaSchema(schema, 'sqlite')
    expect(sqlite).not.toContain('@db.')
    // SQLite's foreign keys have no names.
    expect(line(sqlite, 'Session', 'user')).toBe('user User @relation(fields: [userId], references: [id], onDelete: Cascade, onUpdate: NoAction)')
  })

  it('follows the migration\'s column type for every field on MySQL and PostgreSQL', () => {
    // The migration's type (columnTypeName, before its collation) and the attribute saying it to Prisma; none where Prisma's default is that type.
    const nativeTypes: Record<string, string | undefined> = {
      'varchar(255)': '@db.VarChar(255)',
      text: '@db.Text',
      longtext: '@db.LongText',
      'datetime(3)': '@db.DateTime(3)',
      timestamptz: '@db.Timestamptz(6)',
    }
    for (const dialect of ['mysql', 'postgres'] as const) {
      const text = prismaSchema(schema, dialect)
      for (const [model, definition] of Object.entries(schema)) {
        const names = lookup(nameSchema(schema).models, model)
        for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
          const attribute = nativeTypes[columnTypeName(definition, field, dialect).split(' ')[0] ?? '']
          // Postgres text is Prisma's String.
          const expected = dialect === 'postgres' && fieldDefinition.type !== 'date' ? undefined : attribute
          const found = line(text, names.name, lookup(names.fields, field))?.match(/@db\.\S+/)?.[0]
          expect(found, `${dialect} ${model}.${field}`).toBe(expected)
        }
      }
    }
  })

  it('keeps the Prisma names under a naming option, mapping the renamed tables, columns and id', () => {
    const named = applyNaming(coreSchema, { plural: true, casing: 'snake_case', models: { user: { columns: { id: 'user_id' } } } })
    const text = prismaSchema(named, 'postgres')
    expect(line(text, 'User', 'id')).toBe('id String @id @map("user_id")')
    expect(line(text, 'User', 'emailVerified')).toBe('emailVerified Boolean @map("email_verified")')
    expect(text).toContain('@@map("users")')
    // Other models keep `id` as their column: no @map.
    expect(line(text, 'Session', 'id')).toBe('id String @id')
    expect(line(text, 'Session', 'user')).toContain('fields: [userId], references: [id]')
    expect(line(prismaSchema(named, 'mysql'), 'User', 'id')).toBe('id String @id @map("user_id") @db.VarChar(255)')
  })

  it('puts a table in another PostgreSQL schema, and refuses one elsewhere', () => {
    const qualified = variedSchema()
    const text = prismaSchema(qualified, 'postgres')
    expect(text).toContain('schemas  = ["app", "public"]')
    expect(text).toMatch(/@@map\("notes"\)\n {2}@@schema\("app"\)/)
    expect(text).toMatch(/@@map\("user"\)\n {2}@@schema\("public"\)/)
    expect(() => prismaSchema(qualified, 'mysql')).toThrow(/PostgreSQL only; "app.notes"/)
  })
})
