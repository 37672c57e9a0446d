/**
 * @module
 * CREATE TABLE for a model, written as text. It is the statement Kysely's
 * schema builder compiles (create-table-sql.test.ts checks the two agree for
 * every model of every first-party plugin in each dialect), without building
 * and visiting a node per column, type and constraint: a fresh database's
 * migration compiled some 1,800 nodes, enough for V8 to send Kysely's
 * node visitor to its optimizing compiler during start-up, which alone kept
 * about 5 MiB more resident for the life of the process
 * (bench/README.md#start-up-memory-and-list-endpoints).
 */
import { CompiledQuery } from 'kysely'
import { columnName, getModel, isRequired, tableName, type Schema } from '../schema.js'
import { columnTypeName, idColumnTypeName, MYSQL_TABLE_OPTIONS } from './column-types.js'
import type { SqlDialect } from './dialect.js'
import { objectName } from './plan-indexes.js'

/** An identifier quoted as the dialect's compiler quotes it: the quote character doubled inside. */
function quote(identifier: string, dialect: SqlDialect): string {
  const mark = dialect === 'mysql' ? '`' : '"'
  return `${mark}${identifier.split(mark).join(mark + mark)}${mark}`
}

/** A table name; `schema.table` names a table in a schema, as Kysely reads it. */
function quoteTable(name: string, dialect: SqlDialect): string {
  if (!name.includes('.')) return quote(name, dialect)
  const [schemaName = '', table = ''] = name.split('.').map((part) => part.trim())
  return `${quote(schemaName, dialect)}.${quote(table, dialect)}`
}

/**
 * @example
 * createTableStatement(coreSchema, 'session', 'sqlite').sql
 * // create table "session" ("id" text not null primary key, "userId" text not null, …,
 * //   constraint "session_userId_fk" foreign key ("userId") references "user" ("id") on delete cascade)
 */
export function createTableStatement(schema: Schema, model: string, dialect: SqlDialect): CompiledQuery {
  const table = tableName(schema, model)
  const fields = Object.entries(getModel(schema, model).fields)
  // SQLite lets a non-INTEGER primary key hold NULL unless the column also says NOT NULL.
  const parts = [`${quote(columnName(schema, model, 'id'), dialect)} ${idColumnTypeName(dialect)} not null primary key`]
  for (const [field, definition] of fields) {
    const type = columnTypeName(getModel(schema, model), field, dialect)
    parts.push(`${quote(columnName(schema, model, field), dialect)} ${type}${isRequired(definition) ? ' not null' : ''}`)
  }
  for (const [field, definition] of fields) {
    const reference = definition.references
    if (!reference) continue
    const column = columnName(schema, model, field)
    const target = `${quoteTable(tableName(schema, reference.model), dialect)} (${quote(columnName(schema, reference.model, reference.field), dialect)})`
    const onDelete = reference.onDelete ? ` on delete ${reference.onDelete}` : ''
    parts.push(`constraint ${quote(objectName(table, column, 'fk'), dialect)} foreign key (${quote(column, dialect)}) references ${target}${onDelete}`)
  }
  const options = dialect === 'mysql' ? ` ${MYSQL_TABLE_OPTIONS}` : ''
  return CompiledQuery.raw(`create table ${quoteTable(table, dialect)} (${parts.join(', ')})${options}`)
}
