/**
 * @module
 * The three SQL dialects the Kysely adapter speaks, and the few facts about
 * each that the query and migration code branch on. Kept in one place so a
 * reader can see every dialect difference the adapter knows about.
 */
import type { FieldDefinition, ModelDefinition } from '../schema.js'

export type SqlDialect = 'sqlite' | 'postgres' | 'mysql'

/** PostgreSQL and SQLite (3.35+) return the written rows; MySQL needs a follow-up select. */
export function supportsReturning(dialect: SqlDialect): boolean {
  return dialect !== 'mysql'
}

/** The implicit primary key every model has (schema.ts). */
export const idField: FieldDefinition = { type: 'string' }

/** The definition of a field, `id` included; throws for a field the schema does not know. */
export function fieldDefinition(model: ModelDefinition, modelName: string, field: string): FieldDefinition {
  if (field === 'id') return idField
  const definition = model.fields[field]
  if (!definition) throw new Error(`Unknown field "${modelName}.${field}"`)
  return definition
}
