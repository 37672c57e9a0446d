/**
 * @module
 * Recognises "the database was not migrated": a table or column the schema
 * names is missing, most often because a plugin was added without running
 * its migration (docs/getting-started.md#3-create-the-tables). The request
 * still answers a bare 500 (no SQL leaves the server); the log line says
 * which table or column is missing, which part of the configuration brings
 * it, and the command that creates it.
 *
 * Drivers report it in their own words: SQLite in the message ("no such
 * table", "has no column named", "no such column"), PostgreSQL with SQLSTATE
 * 42P01 undefined_table / 42703 undefined_column, MySQL and MariaDB with
 * 1146 ER_NO_SUCH_TABLE / 1054 ER_BAD_FIELD_ERROR, Prisma with P2021 / P2022.
 * ORMs wrap the driver's error (Drizzle's `DrizzleQueryError`), so the
 * `cause` chain is walked.
 */
import { coreSchema, type Schema } from './schema.js'

export interface MissingSchema {
  readonly kind: 'table' | 'column'
  /** As the database named it, without schema prefix or quotes; unknown for some column errors. */
  readonly table: string | undefined
  readonly column: string | undefined
  /** Drizzle or Prisma wrapped the driver's error: their migration tools apply the change. */
  readonly through: 'drizzle' | 'prisma' | undefined
}

const MAX_CAUSES = 5

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** `"public"."member"`, `main.member`, `` `test`.`member` ``: the parts, unquoted. */
function identifier(raw: string): string[] {
  return raw
    .split('.')
    .map((part) => part.replace(/^["'`[]|["'`\]]$/g, ''))
    .filter(Boolean)
}

function table(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : identifier(raw).at(-1)
}

/** `session.activeOrganizationId` names the table too; a bare name does not. */
function column(raw: string, tableName?: string): Pick<MissingSchema, 'table' | 'column'> {
  const parts = identifier(raw)
  return { column: parts.at(-1), table: tableName === undefined ? (parts.length > 1 ? parts.at(-2) : undefined) : table(tableName) }
}

function classifyOne(error: unknown): Omit<MissingSchema, 'through'> | undefined {
  const code = property(error, 'code')
  const errno = property(error, 'errno')
  const message = text(property(error, 'message'))
  if (typeof code === 'string' && (code.startsWith('SQLITE') || property(error, 'name') === 'SqliteError')) {
    const noTable = /no such table: (\S+)/.exec(message)
    if (noTable) return { kind: 'table', table: table(noTable[1]), column: undefined }
    const noColumnNamed = /table (\S+) has no column named (\S+)/.exec(message)
    if (noColumnNamed) return { kind: 'column', ...column(noColumnNamed[2] ?? '', noColumnNamed[1]) }
    const noColumn = /no such column: (\S+)/.exec(message)
    if (noColumn) return { kind: 'column', ...column(noColumn[1] ?? '') }
    return undefined
  }
  if (code === '42P01') {
    return { kind: 'table', table: table(text(property(error, 'table')) || /relation (\S+) does not exist/.exec(message)?.[1]), column: undefined }
  }
  if (code === '42703') {
    const ofRelation = /column (\S+) of relation (\S+) does not exist/.exec(message)
    if (ofRelation) return { kind: 'column', ...column(ofRelation[1] ?? '', ofRelation[2]) }
    return { kind: 'column', ...column(/column (\S+) does not exist/.exec(message)?.[1] ?? '') }
  }
  if (errno === 1146 || code === 'ER_NO_SUCH_TABLE') {
    return { kind: 'table', table: table(/Table '([^']+)' doesn't exist/.exec(message)?.[1]), column: undefined }
  }
  if (errno === 1054 || code === 'ER_BAD_FIELD_ERROR') {
    return { kind: 'column', ...column(/Unknown column '([^']+)'/.exec(message)?.[1] ?? '') }
  }
  const meta = property(error, 'meta')
  // Prisma names the table in `meta.table` or, through a driver adapter, only in the message.
  if (code === 'P2021') {
    return { kind: 'table', table: table(text(property(meta, 'table')) || /table `([^`]+)`/.exec(message)?.[1]), column: undefined }
  }
  if (code === 'P2022') return { kind: 'column', ...column(text(property(meta, 'column')) || (/column `([^`]+)`/.exec(message)?.[1] ?? '')) }
  return undefined
}

/**
 * The missing table or column an error reports, or undefined for any other error.
 *
 * @example
 * findMissingSchema(new SqliteError('no such table: member', 'SQLITE_ERROR')) // { kind: 'table', table: 'member', ... }
 */
export function findMissingSchema(error: unknown): MissingSchema | undefined {
  let through: MissingSchema['through']
  let current = error
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const name = property(current, 'name')
    if (name === 'DrizzleQueryError') through = 'drizzle'
    if (typeof property(current, 'clientVersion') === 'string') through = 'prisma'
    const found = classifyOne(current)
    if (found) return { ...found, through }
    current = property(current, 'cause')
  }
  return undefined
}

interface SchemaSource {
  /** The merged schema (core, plugins, application). */
  readonly schema: Schema
  readonly plugins: readonly { readonly id: string; readonly schema?: Readonly<Record<string, { readonly fields?: Readonly<Record<string, unknown>> | undefined }>> | undefined }[]
  readonly adapterId: string
}

function same(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase()
}

/** The model and field a missing table or column stands for, by their names in the database. */
function locate(missing: MissingSchema, schema: Schema): { model?: string; field?: string } {
  const models = Object.entries(schema).filter(([model, definition]) => missing.table === undefined || same(missing.table, definition.tableName ?? model))
  if (missing.kind === 'table') return { model: models[0]?.[0] }
  for (const [model, definition] of models) {
    for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
      if (missing.column !== undefined && same(missing.column, fieldDefinition.columnName ?? field)) return { model, field }
    }
  }
  return {}
}

/** Which part of the configuration declares the model (or the field on it). */
function owner(source: SchemaSource, model: string | undefined, field: string | undefined): string | undefined {
  if (model === undefined) return undefined
  for (const plugin of source.plugins) {
    const extension = plugin.schema?.[model]
    if (extension && (field === undefined || extension.fields?.[field] !== undefined)) return `the ${plugin.id} plugin`
  }
  const core: Schema = coreSchema
  const coreModel = core[model]
  if (coreModel && (field === undefined || coreModel.fields[field] !== undefined)) return 'Gatehouse core'
  return 'your schema or additionalFields'
}

/** How this setup applies a migration (docs/adapters.md). */
function command(missing: MissingSchema, adapterId: string): string {
  if (missing.through === 'drizzle' || adapterId.startsWith('drizzle')) {
    const dialect = adapterId.startsWith('drizzle-') ? adapterId.slice('drizzle-'.length) : '<dialect>'
    return `npx gatehouse generate --format drizzle --dialect ${dialect} --output <your schema module>, then npx drizzle-kit generate and npx drizzle-kit migrate (docs/adapters.md#migrations-with-drizzle-kit)`
  }
  if (missing.through === 'prisma' || adapterId.startsWith('prisma')) {
    return 'npx gatehouse generate --format prisma --output prisma/schema.prisma, then npx prisma migrate dev (docs/adapters.md#using-prisma)'
  }
  return 'npx gatehouse migrate, or await runMigrations(auth) at start-up (docs/getting-started.md#3-create-the-tables)'
}

/**
 * The log line for a missing table or column, and its structured fields.
 *
 * @example
 * const line = describeMissingSchema(missing, { schema, plugins, adapterId: 'kysely-sqlite' })
 * logger.error(line.message, line.meta)
 */
export function describeMissingSchema(missing: MissingSchema, source: SchemaSource): { message: string; meta: Record<string, unknown> } {
  const { model, field } = locate(missing, source.schema)
  const what =
    missing.kind === 'table'
      ? `table "${missing.table ?? '?'}" is missing`
      : `column "${missing.column ?? '?'}"${missing.table === undefined ? '' : ` of table "${missing.table}"`} is missing`
  const from = owner(source, model, field)
  const brought = from === undefined ? '' : ` (model ${model}${field === undefined ? '' : `.${field}`}, from ${from})`
  const run = command(missing, source.adapterId)
  return {
    message: `the database is not migrated: ${what}${brought}. Apply the migrations: ${run}`,
    meta: { table: missing.table, column: missing.column, model, field, from, command: run },
  }
}
