/**
 * @module
 * `gatehouse generate --format prisma`: a schema.prisma holding the models
 * for the tables core's migrations create (docs/adapters.md#using-prisma),
 * so an application that migrates with Prisma gets the same tables, column
 * types, indexes and foreign keys as `gatehouse migrate` would make. The
 * column types come from the Kysely migration's own table
 * (db/kysely/column-types.ts) and the index and constraint names from its
 * naming rule (db/kysely/plan-indexes.ts), so the two cannot drift apart;
 * the Prisma names come from db/prisma-names.ts, which @gatehouse/prisma reads too.
 *
 * JSON fields are `String`: core stores them as text on every backend and
 * parses them itself, so a `Json` (jsonb) column would hand its adapter
 * objects it does not expect.
 */
import { isKeyColumn } from '../db/kysely/column-types.js'
import { objectName } from '../db/kysely/plan-indexes.js'
import { columnName, getModel, isRequired, tableName, type FieldDefinition, type FieldReference, type ModelDefinition, type Schema } from '../db/schema.js'
import { lookup, nameSchema, type Relation, type SchemaNames } from '../db/prisma-names.js'

export type PrismaDialect = 'postgres' | 'mysql' | 'sqlite'

const PROVIDERS: Readonly<Record<PrismaDialect, string>> = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' }

const ON_DELETE: Readonly<Record<NonNullable<FieldReference['onDelete']>, string>> = {
  cascade: 'Cascade',
  'set null': 'SetNull',
  restrict: 'Restrict',
}

/**
 * A complete schema.prisma for `schema` on `dialect`: the datasource, a
 * client generator and one model per Gatehouse model, mapped to its table.
 *
 * @example
 * const auth = createAuth({ plugins: [organization()], ... })
 * const text = prismaSchema((await auth.$context).schema, 'postgres')
 * // model Session {
 * //   id     String @id
 * //   userId String
 * //   ...
 * //   user   User   @relation(fields: [userId], references: [id], onDelete: Cascade, onUpdate: NoAction, map: "session_userId_fk")
 * //   @@index([userId], map: "session_userId_idx")
 * //   @@map("session")
 * // }
 */
export function prismaSchema(schema: Schema, dialect: PrismaDialect): string {
  const names = nameSchema(schema)
  const schemas = databaseSchemas(schema, dialect)
  const header = [
    '// Gatehouse\'s tables, written by `gatehouse generate --format prisma` (docs/adapters.md#using-prisma).',
    '// Generate it again after adding a plugin or an additional field.',
    '',
    'generator client {',
    '  provider = "prisma-client"',
    '  output   = "../generated/prisma"',
    '}',
    '',
    'datasource db {',
    `  provider = "${PROVIDERS[dialect]}"`,
    ...(schemas ? [`  schemas  = [${[...new Set(schemas.values())].sort().map(literal).join(', ')}]`] : []),
    '}',
  ].join('\n')
  const models = Object.keys(schema).map((model) => modelBlock(schema, model, dialect, names, schemas?.get(model)))
  return `${[header, ...models].join('\n\n')}\n`
}

/**
 * The PostgreSQL schema of each model when a table name says one
 * (`app.notes`, schema.ts), `public` for the rest: Prisma's multi-schema
 * models. Undefined when every table is in the default schema.
 */
function databaseSchemas(schema: Schema, dialect: PrismaDialect): Map<string, string> | undefined {
  const qualified = Object.keys(schema).map((model) => tableName(schema, model)).find((table) => table.includes('.'))
  if (qualified === undefined) return undefined
  if (dialect !== 'postgres') {
    throw new Error(`The Prisma output puts tables in another schema on PostgreSQL only; "${qualified}" names one on ${dialect}.`)
  }
  return new Map(Object.keys(schema).map((model) => [model, splitTable(tableName(schema, model)).schema ?? 'public']))
}

/** `app.notes` → schema `app`, table `notes`, as Kysely reads a table name. */
function splitTable(name: string): { schema?: string; table: string } {
  if (!name.includes('.')) return { table: name }
  const [schema = '', table = ''] = name.split('.').map((part) => part.trim())
  return { schema, table }
}

/** A string literal in a Prisma schema (the same escapes as JSON). */
function literal(text: string): string {
  return JSON.stringify(text)
}

function modelBlock(schema: Schema, model: string, dialect: PrismaDialect, names: SchemaNames, databaseSchema: string | undefined): string {
  const definition = getModel(schema, model)
  const table = tableName(schema, model)
  const { name: modelName, fields: fieldNames } = lookup(names.models, model)
  // The id keeps its Prisma name `id` whatever its column is called (a naming option's `user_id`, say).
  const idColumn = columnName(schema, model, 'id')
  const lines: FieldLine[] = [['id', 'String', ['@id', ...(idColumn === 'id' ? [] : [`@map(${literal(idColumn)})`]), ...idAttributes(dialect)].join(' ')]]
  const indexes: string[] = []
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    const name = lookup(fieldNames, field)
    const column = columnName(schema, model, field)
    // In the order `prisma format` puts them.
    const attributes = [
      ...(fieldDefinition.unique === true ? [`@unique(map: ${literal(objectName(table, column, 'uniq'))})`] : []),
      ...(column === name ? [] : [`@map(${literal(column)})`]),
      ...nativeType(definition, field, dialect),
    ]
    lines.push([name, scalarType(fieldDefinition) + (isRequired(fieldDefinition) ? '' : '?'), attributes.join(' ')])
    // A unique field already has its index (plan-indexes.ts makes one, not two).
    if (fieldDefinition.index === true && fieldDefinition.unique !== true) {
      indexes.push(`@@index([${name}], map: ${literal(objectName(table, column, 'idx'))})`)
    }
  }
  for (const relation of names.relations) {
    if (relation.model === model) lines.push(forwardRelation(schema, relation, names, dialect))
    if (relation.reference.model === model) lines.push(backRelation(relation, names))
  }
  const blockAttributes = (definition.unique ?? []).map((fields) => {
    const columns = fields.map((field) => columnName(schema, model, field))
    const list = fields.map((field) => lookup(fieldNames, field)).join(', ')
    return `@@unique([${list}], map: ${literal(objectName(table, columns, 'uniq'))})`
  })
  blockAttributes.push(...indexes, `@@map(${literal(splitTable(table).table)})`)
  if (databaseSchema) blockAttributes.push(`@@schema(${literal(databaseSchema)})`)
  return [`model ${modelName} {`, ...alignColumns(lines), '', ...blockAttributes.map((line) => `  ${line}`), '}'].join('\n')
}

/** A field's line: name, type and attributes. */
type FieldLine = readonly [string, string, string]

/** The fields as `prisma format` lays them out: name, type and attributes each in a column. */
function alignColumns(lines: readonly FieldLine[]): string[] {
  const nameWidth = Math.max(...lines.map(([name]) => name.length))
  const typeWidth = Math.max(...lines.map(([, type]) => type.length))
  return lines.map(([name, type, attributes]) =>
    `  ${name.padEnd(nameWidth)} ${attributes === '' ? type : `${type.padEnd(typeWidth)} ${attributes}`}`.trimEnd(),
  )
}

function scalarType(field: FieldDefinition): string {
  switch (field.type) {
    case 'string':
    case 'json':
      return 'String'
    case 'number':
      return field.bigint === true ? 'BigInt' : 'Float'
    case 'boolean':
      return 'Boolean'
    case 'date':
      return 'DateTime'
  }
}

/** The `id` column: TEXT, or VARCHAR(255) on MySQL (idColumnTypeName). */
function idAttributes(dialect: PrismaDialect): string[] {
  return dialect === 'mysql' ? ['@db.VarChar(255)'] : []
}

/**
 * The native type where Prisma's default for the scalar differs from the
 * migration's column (columnTypeName): timestamptz on PostgreSQL, DATETIME(3)
 * and the TEXT family or VARCHAR(255) for keys on MySQL. SQLite has no
 * native type attributes.
 */
function nativeType(model: ModelDefinition, field: string, dialect: PrismaDialect): string[] {
  const type = model.fields[field]?.type
  if (dialect === 'postgres') return type === 'date' ? ['@db.Timestamptz(6)'] : []
  if (dialect === 'sqlite') return []
  if (type === 'date') return ['@db.DateTime(3)']
  if (type === 'json') return ['@db.LongText']
  if (type === 'string') return [isKeyColumn(model, field) ? '@db.VarChar(255)' : '@db.Text']
  return []
}

function forwardRelation(schema: Schema, relation: Relation, names: SchemaNames, dialect: PrismaDialect): FieldLine {
  const { model, field, reference } = relation
  const column = columnName(schema, model, field)
  const args = [
    ...(relation.label ? [literal(relation.label)] : []),
    `fields: [${lookup(lookup(names.models, model).fields, field)}]`,
    `references: [${lookup(lookup(names.models, reference.model).fields, reference.field)}]`,
    // No action is what core's migration leaves unsaid; Prisma's own defaults differ (Restrict or SetNull, and Cascade on update).
    `onDelete: ${reference.onDelete ? ON_DELETE[reference.onDelete] : 'NoAction'}`,
    'onUpdate: NoAction',
    // SQLite's foreign keys have no names Prisma can set.
    ...(dialect === 'sqlite' ? [] : [`map: ${literal(objectName(tableName(schema, model), column, 'fk'))}`]),
  ]
  const type = lookup(names.models, reference.model).name + (isRequired(relation.definition) ? '' : '?')
  return [relation.forward, type, `@relation(${args.join(', ')})`]
}

/** The referenced model's side: a list, or at most one row when the reference is unique (one-to-one). */
function backRelation(relation: Relation, names: SchemaNames): FieldLine {
  const type = lookup(names.models, relation.model).name + (relation.definition.unique === true ? '?' : '[]')
  return [relation.back, type, relation.label ? `@relation(${literal(relation.label)})` : '']
}
