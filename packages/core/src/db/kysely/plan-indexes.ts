/**
 * @module
 * The index half of a migration plan: the indexes a model asks for (`index`,
 * `unique`, and composite `unique` constraints) that the database does not
 * have yet. Names are deterministic, so every run plans the same statements:
 * `<table>_<column>_idx`, `<table>_<column>_uniq`,
 * `<table>_<column1>_<column2>_uniq`. An index also counts as present under
 * another name when it does the same job: for a plain index, any index that
 * starts with the column; for a unique one, a unique index on exactly those
 * columns in the same order (a unique index on fewer or other columns would
 * enforce a different constraint).
 */
import type { CompiledQuery, Kysely } from 'kysely'
import { columnName, getModel, tableName, type Schema } from '../schema.js'
import type { DatabaseState } from './introspect.js'

/**
 * A deterministic constraint or index name, `<table>_<column>_<kind>`, the
 * columns joined by `_` for a composite index. Names longer than 63
 * characters (PostgreSQL truncates silently, MySQL refuses past 64) keep a
 * readable prefix and end in a hash of the full name, so they stay unique
 * and the same on every run.
 *
 * @example
 * objectName('session', 'userId', 'idx') // 'session_userId_idx'
 * objectName('account', ['providerId', 'accountId'], 'uniq') // 'account_providerId_accountId_uniq'
 */
export function objectName(table: string, columns: string | readonly string[], kind: 'idx' | 'uniq' | 'fk'): string {
  const full = `${table}_${typeof columns === 'string' ? columns : columns.join('_')}_${kind}`
  if (full.length <= 63) return full
  // FNV-1a, 32-bit: stable across runs and platforms, and only needs to tell long names apart.
  let hash = 0x811c9dc5
  for (let index = 0; index < full.length; index++) {
    hash ^= full.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${full.slice(0, 54)}_${hash.toString(16).padStart(8, '0')}`
}

interface WantedIndex {
  readonly name: string
  readonly columns: readonly string[]
  readonly unique: boolean
}

/** Every index the model's schema asks for, single-column ones first, each name once. */
function wantedIndexes(schema: Schema, model: string): WantedIndex[] {
  const table = tableName(schema, model)
  const definition = getModel(schema, model)
  const wanted: WantedIndex[] = []
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    if (fieldDefinition.unique !== true && fieldDefinition.index !== true) continue
    const column = columnName(schema, model, field)
    const unique = fieldDefinition.unique === true
    wanted.push({ name: objectName(table, column, unique ? 'uniq' : 'idx'), columns: [column], unique })
  }
  for (const fields of definition.unique ?? []) {
    const columns = fields.map((field) => columnName(schema, model, field))
    const name = objectName(table, columns, 'uniq')
    // Only a hand-written schema can repeat a constraint (mergeSchemas keeps one); one index serves both.
    if (wanted.some((index) => index.name === name)) continue
    wanted.push({ name, columns, unique: true })
  }
  return wanted
}

function isPresent(state: DatabaseState, table: string, wanted: WantedIndex): boolean {
  return state.indexes.some((index) => {
    if (index.table !== table) return false
    if (index.name === wanted.name) return true
    if (!wanted.unique) return index.columns[0] === wanted.columns[0]
    return index.unique && index.columns.length === wanted.columns.length && wanted.columns.every((column, position) => index.columns[position] === column)
  })
}

/**
 * The CREATE INDEX statements `model` still needs, given what `state` found
 * (nothing, for a table the plan is about to create).
 *
 * @example
 * const statements = planIndexes(db, coreSchema, 'account', await introspect(db, 'sqlite'))
 * // [create index "account_userId_idx" …, create unique index "account_providerId_accountId_uniq" …]
 */
export function planIndexes<DB>(db: Kysely<DB>, schema: Schema, model: string, state: DatabaseState): CompiledQuery[] {
  const table = tableName(schema, model)
  const statements: CompiledQuery[] = []
  for (const wanted of wantedIndexes(schema, model)) {
    if (isPresent(state, table, wanted)) continue
    const index = db.schema.createIndex(wanted.name).on(table).columns([...wanted.columns])
    statements.push((wanted.unique ? index.unique() : index).compile())
  }
  return statements
}
