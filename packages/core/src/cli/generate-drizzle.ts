/**
 * @module
 * `gatehouse generate --format drizzle`: a Drizzle schema module holding the
 * tables core's migrations create (docs/adapters.md#using-drizzle), so an
 * application that migrates with drizzle-kit gets the same tables, column
 * types, indexes and foreign keys as `gatehouse migrate` would make, and one
 * database can be served by either adapter. Column types come from the
 * Kysely migration's own table (db/kysely/column-types.ts), index and
 * constraint names from its naming rule (db/kysely/plan-indexes.ts).
 *
 * Every table is exported under its model name with its columns under the
 * field names: the shape `drizzleAdapter(db, { schema })` from
 * `@gatehouse/drizzle` reads. Where Drizzle has no column type with both the
 * SQL type and the value type Gatehouse uses, the module defines one with
 * `customType`: JSON kept as text, SQLite dates as ISO-8601 text, and MySQL
 * strings with the binary collation that keeps comparisons case-sensitive.
 */
import { isKeyColumn } from '../db/kysely/column-types.js'
import { orderModels } from '../db/kysely/migrate.js'
import { objectName } from '../db/kysely/plan-indexes.js'
import { columnName, getModel, isRequired, tableName, type FieldDefinition, type ModelDefinition, type Schema } from '../db/schema.js'
import { drizzleRelations } from './drizzle-relations.js'
import { camelCase, IDENTIFIER, key, literal, member } from './drizzle-syntax.js'

export type DrizzleDialect = 'postgres' | 'mysql' | 'sqlite'

interface DialectSyntax {
  readonly module: string
  readonly table: string
  /** Builders the module always imports (the table function comes first). */
  readonly imports: readonly string[]
  /** `customType` definitions the module starts with, by name. */
  readonly customTypes: Readonly<Record<string, string>>
  /** The builder of Gatehouse's id columns (`text`, or `binVarchar` on MySQL). */
  readonly id: string
}

const MYSQL_BIN = 'character set utf8mb4 collate utf8mb4_bin'

/** A `customType` over a text column of `sqlType`, whose values are `data` and converted with the two bodies. */
function customText(name: string, sqlType: string, data: string, toDriver: string, fromDriver: string): string {
  return [
    `const ${name} = customType<{ data: ${data}; driverData: string }>({`,
    `  dataType: () => '${sqlType}',`,
    `  toDriver: (value) => ${toDriver},`,
    `  fromDriver: (value) => ${fromDriver},`,
    '})',
  ].join('\n')
}

const jsonText = (sqlType: string) => customText('jsonText', sqlType, 'unknown', 'JSON.stringify(value)', 'JSON.parse(value) as unknown')

const DIALECTS: Readonly<Record<DrizzleDialect, DialectSyntax>> = {
  postgres: {
    module: 'drizzle-orm/pg-core',
    table: 'pgTable',
    imports: ['pgTable', 'text', 'doublePrecision', 'bigint', 'boolean', 'timestamp', 'index', 'uniqueIndex', 'foreignKey', 'customType'],
    customTypes: { jsonText: `/** JSON kept as text, as Gatehouse's own migrations store it. */\n${jsonText('text')}` },
    id: 'text',
  },
  mysql: {
    module: 'drizzle-orm/mysql-core',
    table: 'mysqlTable',
    imports: ['mysqlTable', 'double', 'bigint', 'boolean', 'datetime', 'index', 'uniqueIndex', 'foreignKey', 'customType'],
    customTypes: {
      binText: `/** Text compared byte for byte (utf8mb4_bin), so 'Ada' and 'ada' differ as on the other databases. */\n${customText('binText', `text ${MYSQL_BIN}`, 'string', 'value', 'value')}`,
      binVarchar: `/** The same for columns in a key or an index, which MySQL cannot build on TEXT. */\n${customText('binVarchar', `varchar(255) ${MYSQL_BIN}`, 'string', 'value', 'value')}`,
      jsonText: `/** JSON kept as text, as Gatehouse's own migrations store it. */\n${jsonText(`longtext ${MYSQL_BIN}`)}`,
    },
    id: 'binVarchar',
  },
  sqlite: {
    module: 'drizzle-orm/sqlite-core',
    table: 'sqliteTable',
    imports: ['sqliteTable', 'text', 'real', 'integer', 'index', 'uniqueIndex', 'foreignKey', 'customType'],
    customTypes: {
      isoDate: `/** Dates as ISO-8601 text, which sorts and compares in time order, as Gatehouse's own migrations store them. */\n${customText('isoDate', 'text', 'Date', 'value.toISOString()', 'new Date(value)')}`,
    },
    id: 'text',
  },
}

/**
 * `gatehouseId(name)`: the column type of Gatehouse's ids, exported for the
 * application's own columns that reference them. On MySQL and MariaDB a
 * foreign key needs the same type and collation on both sides, and the ids
 * are `varchar(255)` in `utf8mb4_bin`: a column of the default collation is
 * refused (errno 150, docs/adapters.md#your-tables-and-gatehouses).
 */
function idHelper(syntax: DialectSyntax): string {
  return [
    "/** The column type of Gatehouse's ids, for your columns that reference them: `ownerId: gatehouseId('owner_id').references(() => user.id)`. */",
    `export const gatehouseId = (name: string) => ${syntax.id}(name)`,
  ].join('\n')
}

/**
 * A Drizzle schema module (TypeScript) for `schema` on `dialect`: one table
 * per model, exported under the model's name, in an order where every table
 * comes after the tables it references; `gatehouseId`, the id column type for
 * the application's foreign keys; and the `relations()` of every foreign key.
 *
 * @example
 * const auth = createAuth({ plugins: [organization()], ... })
 * const text = drizzleSchema(auth.$schema, 'postgres')
 * // export const session = pgTable('session', {
 * //   id: text('id').primaryKey(),
 * //   userId: text('userId').notNull(),
 * //   ...
 * // }, (table) => [
 * //   index('session_userId_idx').on(table.userId),
 * //   foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
 * // ])
 */
export function drizzleSchema(schema: Schema, dialect: DrizzleDialect): string {
  const syntax = DIALECTS[dialect]
  // Every table after the tables it references, as the migration creates them.
  const models = orderModels(schema)
  const names = constantNames(models, syntax)
  const schemas = new Map<string, string>()
  const module: ModuleNames = { names, schemas, referenced: referencedFields(schema) }
  const tables = models.map((model) => tableBlock(schema, model, dialect, module))
  const id = idHelper(syntax)
  const used = [id, ...tables].join('\n')
  const imports = syntax.imports.filter((name) => name === syntax.table || new RegExp(`\\b${name}\\(`).test(used) || (name === 'customType' && usesCustomType(used, syntax)))
  const customTypes = Object.entries(syntax.customTypes)
    .filter(([name]) => new RegExp(`\\b${name}\\(`).test(used))
    .map(([, definition]) => definition)
  if (schemas.size > 0) imports.push('pgSchema')
  const relations = drizzleRelations(schema, models, names, new Set([...syntax.imports, ...Object.keys(syntax.customTypes), ...names.values(), ...schemas.values(), 'gatehouseId', 'relations']))
  const header = [
    `// Gatehouse's tables for Drizzle (${dialect}), written by \`gatehouse generate --format drizzle --dialect ${dialect}\`.`,
    '// Generate it again after adding a plugin or an additional field, then run `drizzle-kit generate` (docs/adapters.md#using-drizzle).',
    ...(relations.length > 0 ? ["import { relations } from 'drizzle-orm'"] : []),
    `import { ${imports.join(', ')} } from '${syntax.module}'`,
  ].join('\n')
  const schemaConstants = [...schemas].map(([name, constant]) => `export const ${constant} = pgSchema(${literal(name)})`)
  return `${[header, ...schemaConstants, ...customTypes, id, ...tables, ...relations].join('\n\n')}\n`
}

function usesCustomType(text: string, syntax: DialectSyntax): boolean {
  return Object.keys(syntax.customTypes).some((name) => new RegExp(`\\b${name}\\(`).test(text))
}

/**
 * The constant each model's table is exported as: the model's name, or for a
 * name that is not an identifier (`audit-entry`) or that an import already
 * takes (`index`), a camelCase identifier (`auditEntry`, `indexTable`).
 * `@gatehouse/drizzle` finds a table by its model name first, then by its
 * table name, so either works.
 */
function constantNames(models: readonly string[], syntax: DialectSyntax): ReadonlyMap<string, string> {
  const taken = new Set([...syntax.imports, ...Object.keys(syntax.customTypes), 'pgSchema', 'gatehouseId', 'relations'])
  const names = new Map<string, string>()
  for (const model of models) {
    let name = IDENTIFIER.test(model) ? model : camelCase(model)
    while (taken.has(name)) name = `${name}Table`
    taken.add(name)
    names.set(model, name)
  }
  return names
}

/** The column builder call for a field, without `.notNull()`. */
function columnBuilder(model: ModelDefinition, field: string, definition: FieldDefinition, column: string, dialect: DrizzleDialect): string {
  const name = literal(column)
  switch (definition.type) {
    case 'string':
      if (dialect === 'mysql') return `${isKeyColumn(model, field) ? 'binVarchar' : 'binText'}(${name})`
      return `text(${name})`
    case 'number':
      if (definition.bigint === true) return dialect === 'sqlite' ? `integer(${name}, { mode: 'number' })` : `bigint(${name}, { mode: 'number' })`
      return dialect === 'postgres' ? `doublePrecision(${name})` : dialect === 'mysql' ? `double(${name})` : `real(${name})`
    case 'boolean':
      return dialect === 'sqlite' ? `integer(${name}, { mode: 'boolean' })` : `boolean(${name})`
    case 'date':
      if (dialect === 'postgres') return `timestamp(${name}, { withTimezone: true, mode: 'date' })`
      return dialect === 'mysql' ? `datetime(${name}, { mode: 'date', fsp: 3 })` : `isoDate(${name})`
    case 'json':
      return dialect === 'sqlite' ? `text(${name}, { mode: 'json' })` : `jsonText(${name})`
  }
}

/** What every table of the module shares: the constants tables are exported as, the PostgreSQL schemas declared, the fields foreign keys point at. */
interface ModuleNames {
  readonly names: ReadonlyMap<string, string>
  readonly schemas: Map<string, string>
  readonly referenced: ReadonlySet<string>
}

/** `model.field` for every field a foreign key references. */
function referencedFields(schema: Schema): Set<string> {
  const referenced = new Set<string>()
  for (const definition of Object.values(schema)) {
    for (const field of Object.values(definition.fields)) if (field.references) referenced.add(`${field.references.model}.${field.references.field}`)
  }
  return referenced
}

function tableBlock(schema: Schema, model: string, dialect: DrizzleDialect, { names, schemas, referenced }: ModuleNames): string {
  const definition = getModel(schema, model)
  const table = tableName(schema, model)
  const constant = names.get(model) ?? model
  const columns = [`  id: ${DIALECTS[dialect].id}(${literal(columnName(schema, model, 'id'))}).primaryKey(),`]
  const extras: string[] = []
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    const column = columnName(schema, model, field)
    const required = isRequired(fieldDefinition) ? '.notNull()' : ''
    // drizzle-kit adds PostgreSQL's foreign keys before its indexes: a unique field a foreign key points at must be unique in CREATE TABLE itself.
    const inTable = dialect === 'postgres' && fieldDefinition.unique === true && referenced.has(`${model}.${field}`)
    const unique = inTable ? `.unique(${literal(objectName(table, column, 'uniq'))})` : ''
    columns.push(`  ${key(field)}: ${columnBuilder(definition, field, fieldDefinition, column, dialect)}${required}${unique},`)
    if (inTable) continue
    if (fieldDefinition.unique === true) extras.push(`uniqueIndex(${literal(objectName(table, column, 'uniq'))}).on(${member('table', field)})`)
    else if (fieldDefinition.index === true) extras.push(`index(${literal(objectName(table, column, 'idx'))}).on(${member('table', field)})`)
  }
  for (const fields of definition.unique ?? []) {
    const name = objectName(table, fields.map((field) => columnName(schema, model, field)), 'uniq')
    // Only a hand-written schema can repeat a constraint or restate a field's own; one index serves both.
    if (extras.some((extra) => extra.startsWith(`uniqueIndex(${literal(name)})`))) continue
    extras.push(`uniqueIndex(${literal(name)}).on(${fields.map((field) => member('table', field)).join(', ')})`)
  }
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    const reference = fieldDefinition.references
    if (!reference) continue
    const target = reference.model === model ? 'table' : (names.get(reference.model) ?? reference.model)
    const name = objectName(table, columnName(schema, model, field), 'fk')
    const onDelete = reference.onDelete ? `.onDelete(${literal(reference.onDelete)})` : ''
    extras.push(`foreignKey({ name: ${literal(name)}, columns: [${member('table', field)}], foreignColumns: [${member(target, reference.field)}] })${onDelete}`)
  }
  const body = `{\n${columns.join('\n')}\n}`
  const head = `export const ${constant} = ${tableFunction(table, dialect, schemas)}, ${body}`
  if (extras.length === 0) return `${head})`
  return `${head}, (table) => [\n${extras.map((extra) => `  ${extra},`).join('\n')}\n])`
}

/**
 * `pgTable('name'`, or for `schema.table` on PostgreSQL `<schema>.table('table'`
 * with the schema declared once by `pgSchema`. MySQL and SQLite have no such names.
 */
function tableFunction(table: string, dialect: DrizzleDialect, schemas: Map<string, string>): string {
  const dot = table.indexOf('.')
  if (dot < 0) return `${DIALECTS[dialect].table}(${literal(table)}`
  if (dialect !== 'postgres') throw new Error(`The table "${table}" is in another schema, which only PostgreSQL has`)
  const schemaName = table.slice(0, dot).trim()
  let constant = schemas.get(schemaName)
  if (constant === undefined) {
    constant = `${camelCase(schemaName)}Schema`
    schemas.set(schemaName, constant)
  }
  return `${constant}.table(${literal(table.slice(dot + 1).trim())}`
}
