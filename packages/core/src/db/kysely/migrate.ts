/**
 * @module
 * Schema migration for the Kysely adapter: compares the merged `Schema` with
 * what the database holds (introspect.ts) and emits only what is missing —
 * tables, columns, indexes — built with Kysely's schema builder and compiled,
 * so a dry run returns exactly the SQL a real run executes. It never drops or
 * alters existing columns: removing data is left to the application.
 *
 * Running it twice is safe: the second run finds everything in place and
 * returns no statements. Index names are deterministic
 * (`<table>_<column>_idx`, `_uniq`, `_fk`), and an index counts as present when
 * any index on the table covers the column, whatever its name.
 */
import { sql, type CompiledQuery, type CreateTableBuilder, type Kysely } from 'kysely'
import type { MigrationResult } from '../adapter.js'
import { columnName, getModel, isRequired, tableName, type FieldDefinition, type Schema } from '../schema.js'
import { columnType, idColumnType, isMysqlTextColumn, mysqlTableOptions } from './column-types.js'
import { supportsTransactionalDdl, type SqlDialect } from './dialect.js'
import { introspect, type DatabaseState } from './introspect.js'
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
function constantDefault(field: FieldDefinition, dialect: SqlDialect) {
  const value = field.defaultValue
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined
  if (field.type === 'date' || field.type === 'json') return undefined
  const stored = toColumnValue(field, value, dialect)
  if (typeof stored !== 'string' && typeof stored !== 'number' && typeof stored !== 'boolean') return undefined
  // MySQL accepts a DEFAULT on TEXT columns only as an expression: `default ('x')`.
  return dialect === 'mysql' && isMysqlTextColumn(field) ? sql`(${sql.lit(stored)})` : sql.lit(stored)
}

/**
 * A deterministic constraint or index name, `<table>_<column>_<kind>`. Names
 * longer than 63 characters (PostgreSQL truncates silently, MySQL refuses
 * past 64) keep a readable prefix and end in a hash of the full name, so they
 * stay unique and the same on every run.
 */
export function objectName(table: string, column: string, kind: 'idx' | 'uniq' | 'fk'): string {
  const full = `${table}_${column}_${kind}`
  if (full.length <= 63) return full
  // FNV-1a, 32-bit: stable across runs and platforms, and only needs to tell long names apart.
  let hash = 0x811c9dc5
  for (let index = 0; index < full.length; index++) {
    hash ^= full.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${full.slice(0, 54)}_${hash.toString(16).padStart(8, '0')}`
}

function hasIndex(state: DatabaseState, table: string, column: string, unique: boolean, name: string): boolean {
  return state.indexes.some(
    (index) =>
      index.table === table &&
      (index.name === name ||
        (unique ? index.unique && index.columns.length === 1 && index.columns[0] === column : index.columns[0] === column)),
  )
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
    const fields = Object.entries(getModel(schema, model).fields)
    const existing = state.tables.get(table)

    if (!existing) {
      let create: CreateTableBuilder<string, string> = db.schema.createTable(table).addColumn('id', idColumnType(dialect), (column) =>
        // SQLite lets a non-INTEGER primary key hold NULL unless the column also says NOT NULL.
        column.primaryKey().notNull(),
      )
      for (const [field, definition] of fields) {
        create = create.addColumn(columnName(schema, model, field), columnType(definition, dialect), (column) =>
          isRequired(definition) ? column.notNull() : column,
        )
      }
      for (const [field, definition] of fields) {
        const reference = resolveReference(schema, definition)
        if (!reference) continue
        const column = columnName(schema, model, field)
        create = create.addForeignKeyConstraint(objectName(table, column, 'fk'), [column], reference.table, [reference.column], (fk) =>
          reference.onDelete ? fk.onDelete(reference.onDelete) : fk,
        )
      }
      if (dialect === 'mysql') create = create.modifyEnd(mysqlTableOptions)
      statements.push(create.compile())
    } else {
      for (const [field, definition] of fields) {
        const column = columnName(schema, model, field)
        if (existing.has(column)) continue
        const reference = resolveReference(schema, definition)
        // A required field added to a table that already has rows cannot be NOT NULL: the existing rows
        // have no value for it (PostgreSQL and MySQL reject the ALTER, SQLite refuses NOT NULL without a
        // default). It is added nullable, and core writes it on every new row; with a constant default it
        // can be NOT NULL, the default filling the old rows. SQLite forbids a non-null default on a
        // REFERENCES column added by ALTER, so such a column stays nullable.
        const fallback = reference && dialect === 'sqlite' ? undefined : constantDefault(definition, dialect)
        const notNull = isRequired(definition) && fallback !== undefined
        const add = db.schema.alterTable(table).addColumn(column, columnType(definition, dialect), (builder) => {
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

    for (const [field, definition] of fields) {
      if (definition.unique !== true && definition.index !== true) continue
      const column = columnName(schema, model, field)
      const unique = definition.unique === true
      const name = objectName(table, column, unique ? 'uniq' : 'idx')
      if (existing && hasIndex(state, table, column, unique, name)) continue
      const index = db.schema.createIndex(name).on(table).column(column)
      statements.push((unique ? index.unique() : index).compile())
    }
  }
  for (const statement of statements) {
    // Every value is inlined as a literal so `statements` is runnable SQL; a bound parameter would be lost.
    if (statement.parameters.length > 0) throw new Error(`Migration statement has bound parameters: ${statement.sql}`)
  }
  return statements
}

/**
 * Plans and, unless `dryRun`, executes the migration: in one transaction on
 * PostgreSQL and SQLite, whose DDL is transactional; statement by statement
 * on MySQL, which commits around each DDL statement anyway.
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
  const statements = await planMigration(db, schema, dialect)
  const sqlText = statements.map((statement) => statement.sql)
  if (options.dryRun) return { statements: sqlText, applied: false }
  if (statements.length > 0) {
    if (supportsTransactionalDdl(dialect) && !db.isTransaction) {
      await db.transaction().execute(async (trx) => {
        for (const statement of statements) await trx.executeQuery(statement)
      })
    } else {
      for (const statement of statements) await db.executeQuery(statement)
    }
  }
  return { statements: sqlText, applied: true }
}
