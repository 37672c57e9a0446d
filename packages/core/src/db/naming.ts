/**
 * @module
 * Naming tables and columns the application's way (docs/adapters.md#naming-tables-and-columns):
 * `applyNaming` turns the merged schema into one where every model carries
 * its final table name, every field its final column name and every model
 * the name of its `id` column, so the adapters, the migrator and the schema
 * generators only ever read names, never work them out.
 *
 * Precedence, highest first: `naming.models`, then a name the schema itself
 * gives (a plugin's or `options.schema`'s `tableName`/`columnName`), then
 * `plural` and `casing` applied to the model or field name. Without `naming`
 * every name is exactly the model or field name, as before naming existed,
 * so an existing database needs no migration.
 */
import type { FieldDefinition, ModelDefinition, Schema } from './schema.js'

/** A model's own names; they win over `plural` and `casing`. */
export interface ModelNaming {
  /** The table's name, e.g. `users`. */
  readonly tableName?: string | undefined
  /** Column names by field name; `id` names the primary key column. */
  readonly columns?: Readonly<Record<string, string>> | undefined
}

export interface NamingOptions {
  /** Pluralise every table name (`user` → `users`, `verification` → `verifications`). Default false. */
  readonly plural?: boolean | undefined
  /** `snake_case` writes tables and columns as `email_verified`, `rate_limit`. Default `camelCase`: the names as the schema spells them. */
  readonly casing?: 'camelCase' | 'snake_case' | undefined
  /** Per model, by model name (`user`, `session`, a plugin's model): any table and column name. */
  readonly models?: Readonly<Record<string, ModelNaming>> | undefined
}

/**
 * `emailVerified` → `email_verified`; a run of capitals is one word (`userID` → `user_id`).
 *
 * @example
 * snakeCase('accessTokenExpiresAt') // 'access_token_expires_at'
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
}

/**
 * The English plural of a name's last word: consonant + y → ies, s/x/z/ch/sh → es, anything else + s.
 *
 * @example
 * pluralise('rateLimit') // 'rateLimits'
 * pluralise('identity') // 'identities'
 * pluralise('passkey') // 'passkeys'
 */
export function pluralise(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}${name.endsWith('Y') ? 'IES' : 'ies'}`
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}${/[A-Z]$/.test(name) ? 'ES' : 'es'}`
  return `${name}${/[A-Z]$/.test(name) ? 'S' : 's'}`
}

/**
 * The schema with every name resolved: each model gets `tableName` and
 * `idColumnName`, each field `columnName`. Throws, at start-up, for a
 * `naming.models` entry naming a model or field the schema does not have,
 * for an empty name, and for two columns of one table (or two tables) that
 * would share a name: names are compared ignoring case, as MySQL and SQLite
 * compare them.
 *
 * @example
 * const schema = applyNaming(mergeSchemas(coreSchema), { plural: true, casing: 'snake_case', models: { user: { columns: { id: 'user_id' } } } })
 * tableName(schema, 'rateLimit') // 'rate_limits'
 * columnName(schema, 'user', 'emailVerified') // 'email_verified'
 * columnName(schema, 'user', 'id') // 'user_id'
 */
export function applyNaming(schema: Schema, naming: NamingOptions | undefined): Schema {
  checkNamingModels(schema, naming)
  const casing = naming?.casing ?? 'camelCase'
  if (casing !== 'camelCase' && casing !== 'snake_case') {
    throw new Error(`Gatehouse: \`naming.casing\` must be 'camelCase' or 'snake_case', not ${JSON.stringify(casing)}`)
  }
  const cased = (name: string): string => (casing === 'snake_case' ? snakeCase(name) : name)
  const resolved: Record<string, ModelDefinition> = {}
  for (const [model, definition] of Object.entries(schema)) {
    const own = naming?.models?.[model]
    const fields: Record<string, FieldDefinition> = {}
    for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
      fields[field] = { ...fieldDefinition, columnName: own?.columns?.[field] ?? fieldDefinition.columnName ?? cased(field) }
    }
    const table = own?.tableName ?? definition.tableName ?? (naming?.plural === true ? pluralise(cased(model)) : cased(model))
    resolved[model] = { ...definition, tableName: table, idColumnName: own?.columns?.id ?? definition.idColumnName ?? 'id', fields }
  }
  checkDistinctNames(resolved)
  return resolved
}

function checkNamingModels(schema: Schema, naming: NamingOptions | undefined): void {
  for (const [model, own] of Object.entries(naming?.models ?? {})) {
    const definition = schema[model]
    const label = `Gatehouse: \`naming.models.${model}`
    if (!definition) throw new Error(`${label}\` names no model; the models are ${Object.keys(schema).join(', ')}`)
    if (own.tableName !== undefined) checkName(own.tableName, `${label}.tableName\``)
    for (const [field, column] of Object.entries(own.columns ?? {})) {
      if (field !== 'id' && !(field in definition.fields)) {
        throw new Error(`${label}.columns.${field}\` names no field of "${model}"; its fields are id, ${Object.keys(definition.fields).join(', ')}`)
      }
      checkName(column, `${label}.columns.${field}\``)
    }
  }
}

function checkName(name: unknown, label: string): void {
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`${label} must be a non-empty string`)
}

function checkDistinctNames(schema: Schema): void {
  const tables = new Map<string, string>()
  for (const [model, definition] of Object.entries(schema)) {
    const table = definition.tableName ?? model
    const other = tables.get(table.toLowerCase())
    if (other !== undefined) throw new Error(`Gatehouse: models "${other}" and "${model}" are both named table "${table}"; give one another name in \`naming.models\``)
    tables.set(table.toLowerCase(), model)
    const columns = new Map<string, string>([[(definition.idColumnName ?? 'id').toLowerCase(), 'id']])
    for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
      const column = fieldDefinition.columnName ?? field
      const taken = columns.get(column.toLowerCase())
      if (taken !== undefined) {
        throw new Error(`Gatehouse: fields "${model}.${taken}" and "${model}.${field}" are both named column "${column}" of table "${table}"; give one another name in \`naming.models.${model}.columns\``)
      }
      columns.set(column.toLowerCase(), field)
    }
  }
}
