/**
 * @module
 * Schema migration for the Kysely adapter: compares the merged `Schema` with
 * what the database holds (introspect.ts) and emits only what is missing —
 * tables (create-table-sql.ts), columns, indexes (built with Kysely's schema
 * builder and compiled) — so a dry run returns exactly the SQL a real run executes. It never drops or
 * alters existing columns: removing data is left to the application.
 *
 * Running it twice is safe: the second run finds everything in place and
 * returns no statements. Index and constraint names are deterministic
 * (`<table>_<column>_idx`, `_uniq`, `_fk`; plan-indexes.ts), and an index
 * counts as present when one on the table does the same job, whatever its name.
 *
 * A table that exists already (an application's own `users` table mapped with
 * `naming`) must be one Gatehouse can write: existing-tables.ts refuses, before
 * any statement runs, a key column that cannot hold string ids, a column of
 * the wrong type, and an application column that is NOT NULL without a default.
 *
 * The one change to an existing column is MySQL-only: a TEXT column that has
 * become part of an index (a field newly marked unique or indexed, or named in
 * a new composite unique constraint) is converted to VARCHAR(255), since
 * MySQL cannot index TEXT; a value longer than 255 characters makes that
 * statement fail rather than be cut short.
 */
import { sql, type CompiledQuery, type Kysely } from 'kysely'
import type { MigrationResult } from '../adapter.js'
import { columnName, getModel, isRequired, tableName, type FieldDefinition, type ModelDefinition, type Schema } from '../schema.js'
import { columnType, isKeyColumn, isMysqlTextColumn } from './column-types.js'
import { createTableStatement } from './create-table-sql.js'
import type { SqlDialect } from './dialect.js'
import { checkExistingTable } from './existing-tables.js'
import { introspect, type DatabaseState } from './introspect.js'
import { withMigrationLock } from './migration-lock.js'
import { objectName, planIndexes } from './plan-indexes.js'
import { toColumnValue } from './values.js'

interface Reference {
  readonly table: string
  readonly column: string
  readonly onDelete: 'cascade' | 'set null' | 'restrict' | undefined
}

function resolveReference(schema: Schema, field: FieldDefinition): Reference | undefined {
  const reference = field.references
  if (!reference) return undefined
  return {
    table: tableName(schema, reference.model),
    column: columnName(schema, reference.model, reference.field),
    onDelete: reference.onDelete,
  }
}

/** Models ordered so a referenced table is created before the tables that point at it. */
export function orderModels(schema: Schema): string[] {
  const order: string[] = []
  const seen = new Set<string>()
  const visit = (model: string): void => {
    if (seen.has(model)) return
    seen.add(model)
    for (const field of Object.values(getModel(schema, model).fields)) {
      const target = field.references?.model
      if (target !== undefined && target !== model && target in schema) visit(target)
    }
    order.push(model)
  }
  for (const model of Object.keys(schema)) visit(model)
  return order
}

/**
 * The constant DEFAULT for a column added to a table that already has rows,
 * or undefined. Only literal strings, numbers and booleans qualify: a function
 * default is evaluated per row at create time and has no SQL equivalent.
 */
function constantDefault(model: ModelDefinition, name: string, dialect: SqlDialect) {
  const field = model.fields[name]
  if (!field) return undefined
  const value = field.defaultValue
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined
  if (field.type === 'date' || field.type === 'json') return undefined
  const stored = toColumnValue(field, value, dialect)
  if (typeof stored !== 'string' && typeof stored !== 'number' && typeof stored !== 'boolean') return undefined
  // MySQL accepts a DEFAULT on TEXT columns only as an expression: `default ('x')`.
  return dialect === 'mysql' && isMysqlTextColumn(model, name) ? sql`(${sql.lit(stored)})` : sql.lit(stored)
}

const MYSQL_TEXT_TYPES: ReadonlySet<string> = new Set(['tinytext', 'text', 'mediumtext', 'longtext'])

/**
 * MySQL only: the existing string columns of `model` that now take part in
 * an index but are still TEXT, converted to VARCHAR(255) so the index can be
 * created. Nullability is kept as it is, and a default the column had is
 * restated, because MODIFY COLUMN replaces the whole column definition.
 */
function widenKeyColumns<DB>(db: Kysely<DB>, schema: Schema, model: string, state: DatabaseState): CompiledQuery[] {
  const table = tableName(schema, model)
  const definition = getModel(schema, model)
  const statements: CompiledQuery[] = []
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    if (fieldDefinition.type !== 'string' || !isKeyColumn(definition, field)) continue
    const column = columnName(schema, model, field)
    const existing = state.columns.get(table)?.get(column)
    if (!existing || !MYSQL_TEXT_TYPES.has(existing.dataType)) continue
    const fallback = existing.hasDefault ? constantDefault(definition, field, 'mysql') : undefined
    const modify = db.schema.alterTable(table).modifyColumn(column, columnType(definition, field, 'mysql'), (builder) => {
      const next = fallback === undefined ? builder : builder.defaultTo(fallback)
      return existing.nullable ? next : next.notNull()
    })
    statements.push(modify.compile())
  }
  return statements
}

/**
 * The statements that bring the database up to the schema, in execution order.
 *
 * @example
 * const statements = await planMigration(db, schema, 'sqlite')
 * console.log(statements.map((s) => s.sql).join(';\n'))
 */
export async function planMigration<DB>(db: Kysely<DB>, schema: Schema, dialect: SqlDialect): Promise<CompiledQuery[]> {
  const state = await introspect(db, dialect)
  const statements: CompiledQuery[] = []
  for (const model of orderModels(schema)) {
    const table = tableName(schema, model)
    const definition = getModel(schema, model)
    const fields = Object.entries(definition.fields)
    const existing = state.tables.get(table)

    if (!existing) {
      statements.push(createTableStatement(schema, model, dialect))
    } else {
      checkExistingTable(schema, model, state, dialect)
      if (dialect === 'mysql') statements.push(...widenKeyColumns(db, schema, model, state))
      for (const [field, fieldDefinition] of fields) {
        const column = columnName(schema, model, field)
        if (existing.has(column)) continue
        const reference = resolveReference(schema, fieldDefinition)
        // A required field added to a table that already has rows cannot be NOT NULL: the existing rows
        // have no value for it (PostgreSQL and MySQL reject the ALTER, SQLite refuses NOT NULL without a
        // default). It is added nullable, and core writes it on every new row; with a constant default it
        // can be NOT NULL, the default filling the old rows. SQLite forbids a non-null default on a
        // REFERENCES column added by ALTER, so such a column stays nullable.
        const fallback = reference && dialect === 'sqlite' ? undefined : constantDefault(definition, field, dialect)
        const notNull = isRequired(fieldDefinition) && fallback !== undefined
        const add = db.schema.alterTable(table).addColumn(column, columnType(definition, field, dialect), (builder) => {
          let next = fallback === undefined ? builder : builder.defaultTo(fallback)
          if (notNull) next = next.notNull()
          // MySQL parses and ignores column-level REFERENCES, so it gets a separate constraint below.
          if (reference && dialect !== 'mysql') {
            next = next.references(`${reference.table}.${reference.column}`)
            if (reference.onDelete) next = next.onDelete(reference.onDelete)
          }
          return next
        })
        statements.push(add.compile())
        if (reference && dialect === 'mysql') {
          const fk = db.schema
            .alterTable(table)
            .addForeignKeyConstraint(objectName(table, column, 'fk'), [column], reference.table, [reference.column])
          statements.push((reference.onDelete ? fk.onDelete(reference.onDelete) : fk).compile())
        }
      }
    }

    statements.push(...planIndexes(db, schema, model, state))
  }
  for (const statement of statements) {
    // Every value is inlined as a literal so `statements` is runnable SQL; a bound parameter would be lost.
    if (statement.parameters.length > 0) throw new Error(`Migration statement has bound parameters: ${statement.sql}`)
  }
  return statements
}

/**
 * Plans and, unless `dryRun`, executes the migration under the migration
 * lock (migration-lock.ts): in one transaction on PostgreSQL and SQLite,
 * whose DDL is transactional; statement by statement on MySQL, which commits
 * around each DDL statement anyway.
 *
 * @example
 * const { statements } = await migrateSchema(db, schema, 'postgres', { dryRun: true })
 */
export async function migrateSchema<DB>(
  db: Kysely<DB>,
  schema: Schema,
  dialect: SqlDialect,
  options: { dryRun: boolean },
): Promise<MigrationResult> {
  if (options.dryRun) {
    const statements = await planMigration(db, schema, dialect)
    return { statements: statements.map((statement) => statement.sql), applied: false }
  }
  // Planned only once the lock is held: another process may have migrated while this one waited.
  return withMigrationLock(db, dialect, async (locked) => {
    const statements = await planMigration(locked, schema, dialect)
    for (const statement of statements) await locked.executeQuery(statement)
    return { statements: statements.map((statement) => statement.sql), applied: true }
  })
}
