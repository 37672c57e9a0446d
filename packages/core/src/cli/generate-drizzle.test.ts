import { describe, expect, it } from 'vitest'
import { coreSchema, mergeSchemas, type Schema } from '../db/schema.js'
import { drizzleSchema } from './generate-drizzle.js'

const schema = mergeSchemas(coreSchema, {
  // Declared before the model it references, and referencing itself.
  comment: {
    fields: {
      authorId: { type: 'string', references: { model: 'user', field: 'id', onDelete: 'set null' }, required: false },
      parentId: { type: 'string', references: { model: 'comment', field: 'id', onDelete: 'cascade' }, required: false },
      body: { type: 'json' },
      postedAt: { type: 'date', columnName: 'posted_at' },
    },
  },
})

describe('drizzleSchema', () => {
  it('declares a table after the tables it references, and a reference to itself through the table', () => {
    const text = drizzleSchema({ comment: schema.comment!, user: schema.user! }, 'postgres')
    expect(text.indexOf('export const user =')).toBeLessThan(text.indexOf('export const comment ='))
    expect(text).toContain("foreignKey({ name: 'comment_parentId_fk', columns: [table.parentId], foreignColumns: [table.id] }).onDelete('cascade')")
    expect(text).toContain("foreignKey({ name: 'comment_authorId_fk', columns: [table.authorId], foreignColumns: [user.id] }).onDelete('set null')")
    expect(text).toContain("  postedAt: timestamp('posted_at', { withTimezone: true, mode: 'date' }).notNull(),")
    expect(text).toContain("  body: jsonText('body').notNull(),")
  })

  it('gives MySQL key strings VARCHAR and the rest TEXT, both case-sensitive, as the migration does', () => {
    const text = drizzleSchema(schema, 'mysql')
    expect(text).toContain("  email: binVarchar('email').notNull(),")
    expect(text).toContain("  name: binText('name').notNull(),")
    // In the composite unique constraint (providerId, accountId): a key column.
    expect(text).toContain("  accountId: binVarchar('accountId').notNull(),")
    expect(text).toContain("uniqueIndex('account_providerId_accountId_uniq').on(table.providerId, table.accountId)")
    expect(text).toContain("dataType: () => 'varchar(255) character set utf8mb4 collate utf8mb4_bin'")
    expect(text).toContain("  lastRequest: bigint('lastRequest', { mode: 'number' }).notNull(),")
  })

  it('stores SQLite dates as ISO text and imports only what the tables use', () => {
    const text = drizzleSchema(coreSchema, 'sqlite')
    expect(text).toContain("  expiresAt: isoDate('expiresAt').notNull(),")
    expect(text).toContain("  emailVerified: integer('emailVerified', { mode: 'boolean' }).notNull(),")
    expect(text).toContain("import { sqliteTable, text, real, integer, index, uniqueIndex, foreignKey, customType } from 'drizzle-orm/sqlite-core'")
    expect(text).not.toContain('jsonText')
  })

  it('exports a model whose name is not an identifier, or is taken by an import, under a camelCase name', () => {
    const text = drizzleSchema(mergeSchemas(coreSchema, { 'audit-entry': { fields: { userId: { type: 'string', references: { model: 'user', field: 'id' } } } }, index: { fields: { at: { type: 'date' } } } }), 'postgres')
    expect(text).toContain("export const auditEntry = pgTable('audit-entry', {")
    expect(text).toContain("export const indexTable = pgTable('index', {")
  })

  it('puts a PostgreSQL table of another schema in that schema, and refuses one elsewhere', () => {
    const notes = mergeSchemas(coreSchema, { note: { tableName: 'app.notes', fields: { ownerId: { type: 'string', references: { model: 'user', field: 'id' } } } } })
    const text = drizzleSchema(notes, 'postgres')
    expect(text).toContain("export const appSchema = pgSchema('app')")
    expect(text).toContain("export const note = appSchema.table('notes', {")
    expect(() => drizzleSchema(notes, 'mysql')).toThrow('The table "app.notes" is in another schema, which only PostgreSQL has')
  })

  it('exports gatehouseId, the id column type, for every dialect: on MySQL the utf8mb4_bin varchar a foreign key needs', () => {
    expect(drizzleSchema(coreSchema, 'postgres')).toContain('export const gatehouseId = (name: string) => text(name)\n')
    expect(drizzleSchema(coreSchema, 'sqlite')).toContain('export const gatehouseId = (name: string) => text(name)\n')
    const mysql = drizzleSchema(coreSchema, 'mysql')
    expect(mysql).toContain('export const gatehouseId = (name: string) => binVarchar(name)\n')
    expect(mysql).toContain("  id: binVarchar('id').primaryKey(),")
    // Declared before it is used.
    expect(mysql.indexOf('const binVarchar =')).toBeLessThan(mysql.indexOf('export const gatehouseId ='))
  })

  it('names id columns with the schema\'s id column name', () => {
    const renamed: Schema = { ...coreSchema, user: { ...coreSchema.user!, tableName: 'users', idColumnName: 'user_id' } }
    const text = drizzleSchema(renamed, 'postgres')
    expect(text).toContain("export const user = pgTable('users', {\n  id: text('user_id').primaryKey(),")
    expect(text).toContain("foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade')")
  })

  it('writes relations() for every foreign key, one on the table holding it and many on the table it points at', () => {
    const text = drizzleSchema(coreSchema, 'postgres')
    expect(text).toContain("import { relations } from 'drizzle-orm'\n")
    expect(text).toContain(
      [
        'export const userRelations = relations(user, ({ many }) => ({',
        '  sessions: many(session),',
        '  accounts: many(account),',
        '}))',
      ].join('\n'),
    )
    expect(text).toContain(
      ['export const sessionRelations = relations(session, ({ one }) => ({', '  user: one(user, { fields: [session.userId], references: [user.id] }),', '}))'].join('\n'),
    )
    // After every table, which they name.
    expect(text.indexOf('export const userRelations')).toBeGreaterThan(text.lastIndexOf('Table('))
  })

  it('pairs a self-reference and two keys to one table by relationName, and keeps relation keys off column keys', () => {
    const text = drizzleSchema(
      mergeSchemas(coreSchema, {
        transfer: {
          fields: {
            fromUserId: { type: 'string', references: { model: 'user', field: 'id' } },
            toUserId: { type: 'string', references: { model: 'user', field: 'id' } },
            parentId: { type: 'string', required: false, references: { model: 'transfer', field: 'id' } },
            parent: { type: 'string', required: false },
          },
        },
      }),
      'sqlite',
    )
    expect(text).toContain("  fromUser: one(user, { fields: [transfer.fromUserId], references: [user.id], relationName: 'transfer_fromUserId' }),")
    expect(text).toContain("  toUser: one(user, { fields: [transfer.toUserId], references: [user.id], relationName: 'transfer_toUserId' }),")
    expect(text).toContain("  transfersAsFromUser: many(transfer, { relationName: 'transfer_fromUserId' }),")
    expect(text).toContain("  transfersAsToUser: many(transfer, { relationName: 'transfer_toUserId' }),")
    // `parent` is a column of transfer, so the relation takes another key.
    expect(text).toContain("  parentRows: one(transfer, { fields: [transfer.parentId], references: [transfer.id], relationName: 'transfer_parentId' }),")
    expect(text).toContain("  transfersAsParentRows: many(transfer, { relationName: 'transfer_parentId' }),")
  })
})
