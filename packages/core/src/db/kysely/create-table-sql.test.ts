import { sql, type CreateTableBuilder } from 'kysely'
import { describe, expect, it } from 'vitest'
import { applyNaming } from '../naming.js'
import { columnName, getModel, isRequired, tableName, type Schema } from '../schema.js'
import { columnTypeName, idColumnTypeName, MYSQL_TABLE_OPTIONS } from './column-types.js'
import { createTableStatement } from './create-table-sql.js'
import type { SqlDialect } from './dialect.js'
import { objectName } from './plan-indexes.js'
import { compileOnly } from '../../../test/compile-only.js'
import { variedSchema } from '../../../test/varied-schema.js'

/** The same statement through Kysely's schema builder: how the migration built it before create-table-sql.ts. */
function builtByKysely(schema: Schema, model: string, dialect: SqlDialect): string {
  const db = compileOnly(dialect)
  const table = tableName(schema, model)
  const fields = Object.entries(getModel(schema, model).fields)
  let create: CreateTableBuilder<string, string> = db.schema
    .createTable(table)
    .addColumn(columnName(schema, model, 'id'), sql.raw(idColumnTypeName(dialect)), (column) => column.primaryKey().notNull())
  for (const [field, definition] of fields) {
    const type = sql.raw(columnTypeName(getModel(schema, model), field, dialect))
    create = create.addColumn(columnName(schema, model, field), type, (column) => (isRequired(definition) ? column.notNull() : column))
  }
  for (const [field, definition] of fields) {
    const reference = definition.references
    if (!reference) continue
    const column = columnName(schema, model, field)
    create = create.addForeignKeyConstraint(
      objectName(table, column, 'fk'),
      [column],
      tableName(schema, reference.model),
      [columnName(schema, reference.model, reference.field)],
      (fk) => (reference.onDelete ? fk.onDelete(reference.onDelete) : fk),
    )
  }
  if (dialect === 'mysql') create = create.modifyEnd(sql.raw(MYSQL_TABLE_OPTIONS))
  return create.compile().sql
}

const varied = variedSchema()
// The same models under plural snake_case tables with a renamed user id (docs/adapters.md#naming-tables-and-columns).
const named = applyNaming(varied, { plural: true, casing: 'snake_case', models: { user: { columns: { id: 'user_id' } } } })

describe('createTableStatement', () => {
  for (const dialect of ['sqlite', 'postgres', 'mysql'] as const) {
    it(`writes what Kysely's schema builder compiles, for every model (${dialect})`, () => {
      for (const schema of [varied, named]) {
        for (const model of Object.keys(schema)) {
          const statement = createTableStatement(schema, model, dialect)
          expect(statement.sql).toBe(builtByKysely(schema, model, dialect))
          expect(statement.parameters).toEqual([])
        }
      }
    })
  }

  it('names the table and its references as the dialect quotes them', () => {
    expect(createTableStatement(varied, 'note', 'sqlite').sql).toContain(
      `create table "app"."notes" ("id" text not null primary key, "note_title" text not null,`,
    )
    expect(createTableStatement(varied, 'note', 'mysql').sql).toContain('`odd "name```')
    expect(createTableStatement(varied, 'session', 'postgres').sql).toContain(
      'constraint "session_userId_fk" foreign key ("userId") references "user" ("id") on delete cascade',
    )
    expect(createTableStatement(named, 'user', 'postgres').sql).toMatch(/^create table "users" \("user_id" text not null primary key, /)
    expect(createTableStatement(named, 'session', 'postgres').sql).toContain(
      'constraint "sessions_user_id_fk" foreign key ("user_id") references "users" ("user_id") on delete cascade',
    )
  })
})
