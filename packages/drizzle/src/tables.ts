/**
 * @module
 * The application's Drizzle tables, checked against Gatehouse's schema once
 * when the adapter is created: every model needs a table and every field a
 * column, keyed by the field's name (as `gatehouse generate --format
 * drizzle` writes them) or else named in the database as the field's column
 * (an application's own table, keyed in its own style: `emailVerified:
 * boolean('email_verified')` under `naming`, docs/adapters.md#using-drizzle).
 * A module generated before a plugin was added fails at start-up, naming
 * what is missing, rather than on the first request that reads the new field.
 */
import { columnName, type FieldDefinition, type Schema } from '@gatehouse/core'
import { getTableColumns, getTableName, getTableUniqueName, is, Table, type Column } from 'drizzle-orm'

/** One field of a model: its Gatehouse definition and the Drizzle column holding it. */
export interface BoundField {
  readonly field: string
  readonly definition: FieldDefinition
  readonly column: Column
  /** The column's key on the table: the field's name, or the application's own key for it. */
  readonly key: string
}

/** A model's table, its fields in schema order (`id` first), and the selection that reads exactly those. */
export interface BoundModel {
  readonly name: string
  readonly table: Table
  readonly id: Column
  readonly fields: readonly BoundField[]
  readonly byField: ReadonlyMap<string, BoundField>
  /** `{ [field]: column }`: what `select()` reads, leaving out columns the application added. */
  readonly selection: Readonly<Record<string, Column>>
}

const ID_FIELD: FieldDefinition = { type: 'string' }

/**
 * Binds every model of `schema` to its table in `tables` (found under the
 * model's name, or else by its table name), or throws naming the first
 * missing table or column.
 *
 * @example
 * const models = bindTables(conformanceSchema, await import('./auth-schema.js'))
 * models.get('session')?.byField.get('userId')?.column.name // 'userId'
 */
export function bindTables(schema: Schema, tables: Readonly<Record<string, unknown>>): ReadonlyMap<string, BoundModel> {
  const bound = new Map<string, BoundModel>()
  const byTableName = new Map<string, Table>()
  for (const value of Object.values(tables)) if (is(value, Table)) byTableName.set(qualifiedName(value), value)
  for (const [name, model] of Object.entries(schema)) {
    // By model name; a model whose name is not an identifier is exported under another (`auditEntry` for `audit-entry`).
    const exported = Object.hasOwn(tables, name) ? tables[name] : undefined
    const table = is(exported, Table) ? exported : byTableName.get(model.tableName ?? name)
    if (!is(table, Table)) {
      throw new Error(`The Drizzle schema has no table for the model "${name}": run \`gatehouse generate --format drizzle\` again (docs/adapters.md#using-drizzle)`)
    }
    const columns: Record<string, Column> = getTableColumns(table)
    const keyByColumnName = new Map(Object.entries(columns).map(([key, column]) => [column.name, key]))
    const fields: BoundField[] = []
    for (const [field, definition] of [['id', ID_FIELD] as const, ...Object.entries(model.fields)]) {
      const named = columnName(schema, name, field)
      const key = Object.hasOwn(columns, field) ? field : keyByColumnName.get(named)
      const column = key === undefined ? undefined : columns[key]
      if (key === undefined || !column) {
        const where = named === field ? `under the key "${field}"` : `under the key "${field}" or named "${named}"`
        throw new Error(`The Drizzle table for "${name}" has no column ${where}: run \`gatehouse generate --format drizzle\` again (docs/adapters.md#using-drizzle)`)
      }
      fields.push({ field, definition, column, key })
    }
    const id = fields[0]?.column
    if (!id) throw new Error(`The Drizzle table for "${name}" has no id column`)
    bound.set(name, {
      name,
      table,
      id,
      fields,
      byField: new Map(fields.map((entry) => [entry.field, entry])),
      selection: Object.fromEntries(fields.map(({ field, column }) => [field, column])),
    })
  }
  return bound
}

/** `schema.table` for a table in a PostgreSQL schema, as Gatehouse's `tableName` names it; the table's name otherwise. */
function qualifiedName(table: Table): string {
  const name = getTableName(table)
  // Drizzle names a table outside any schema `public.<name>`, whatever the dialect.
  const unique = getTableUniqueName(table)
  return unique === `public.${name}` ? name : unique
}

/** The bound model, or the same error every Gatehouse adapter throws for an unknown model. */
export function modelOf(models: ReadonlyMap<string, BoundModel>, name: string): BoundModel {
  const model = models.get(name)
  if (!model) throw new Error(`Unknown model "${name}"`)
  return model
}

/** The bound field, or an error: an unknown field in `data` is refused, never dropped. */
export function fieldOf(model: BoundModel, field: string): BoundField {
  const bound = model.byField.get(field)
  if (!bound) throw new Error(`Unknown field "${model.name}.${field}"`)
  return bound
}
