/**
 * @module
 * What the migrator refuses in a table that already exists, such as an
 * application's own `users` table mapped with `naming`
 * (docs/adapters.md#mapping-onto-an-existing-users-table). The migrator only
 * adds what is missing and never alters or drops a column, so a column it
 * cannot use would otherwise turn up as a 500 at the first sign-up; it stops
 * the migration instead, naming the column and what to do:
 *
 * - no primary key column where the schema puts `id`, or one that cannot hold
 *   Gatehouse's string ids (an integer or uuid key), or on MySQL one whose
 *   collation is not the utf8mb4_bin of the foreign keys Gatehouse points at it;
 * - a column of a field whose type cannot hold the field's values (text in a
 *   boolean column, a date in an integer column);
 * - a column the schema does not know that is NOT NULL without a default:
 *   Gatehouse never writes it, so every insert would fail.
 */
import { columnName, getModel, tableName, type FieldType, type Schema } from '../schema.js'
import type { SqlDialect } from './dialect.js'
import type { DatabaseState, ExistingColumn } from './introspect.js'

const DOCS = 'docs/adapters.md#mapping-onto-an-existing-users-table'

/** The collation of every text column Gatehouse creates on MySQL (column-types.ts): case-sensitive, as on the other backends. */
const MYSQL_KEY_COLLATION = 'utf8mb4_bin'

/** Throws a migration error for the first column of an existing table Gatehouse could not use. */
export function checkExistingTable(schema: Schema, model: string, state: DatabaseState, dialect: SqlDialect): void {
  const table = tableName(schema, model)
  const columns = state.columns.get(table)
  if (!columns) return
  const known = new Set<string>()
  const idColumn = columnName(schema, model, 'id')
  const id = columns.get(idColumn)
  if (!id) {
    throw new Error(
      `Gatehouse migrate: table "${table}" exists but has no column "${idColumn}" for ${model}.id; name its primary key column with naming.models.${model}.columns.id (${DOCS})`,
    )
  }
  if (!fits('string', id.dataType, dialect)) {
    throw new Error(
      `Gatehouse migrate: column "${table}"."${idColumn}" (${id.dataType}) cannot hold ${model}.id: Gatehouse ids are strings; the key column must be a text type (${DOCS})`,
    )
  }
  if (id.collation !== undefined && id.collation !== MYSQL_KEY_COLLATION) {
    throw new Error(
      `Gatehouse migrate: column "${table}"."${idColumn}" has collation ${id.collation}; the foreign keys Gatehouse creates to it are ${MYSQL_KEY_COLLATION}, and MySQL needs the two to match: ALTER TABLE \`${table}\` MODIFY \`${idColumn}\` VARCHAR(255) CHARACTER SET utf8mb4 COLLATE ${MYSQL_KEY_COLLATION} (${DOCS})`,
    )
  }
  known.add(idColumn)
  for (const [field, definition] of Object.entries(getModel(schema, model).fields)) {
    const column = columnName(schema, model, field)
    known.add(column)
    const existing = columns.get(column)
    if (existing && !fits(definition.type, existing.dataType, dialect)) {
      throw new Error(
        `Gatehouse migrate: column "${table}"."${column}" is ${existing.dataType}, which cannot hold ${model}.${field} (${definition.type}); change the column's type or map the field to another column with naming.models.${model}.columns (${DOCS})`,
      )
    }
  }
  for (const [column, existing] of columns) {
    if (known.has(column) || !blocksInserts(existing)) continue
    throw new Error(
      `Gatehouse migrate: column "${table}"."${column}" is NOT NULL without a default, and Gatehouse does not write it, so every new ${model} would fail; give it a default, make it nullable, or declare it as a field (${DOCS})`,
    )
  }
}

function blocksInserts(column: ExistingColumn): boolean {
  return !column.nullable && !column.hasDefault && !column.autoIncrement
}

/** SQLite's type affinity of a declared column type (sqlite.org/datatype3.html §3.1). */
function sqliteAffinity(declared: string): 'integer' | 'text' | 'blob' | 'real' | 'numeric' {
  if (declared.includes('int')) return 'integer'
  if (declared.includes('char') || declared.includes('clob') || declared.includes('text')) return 'text'
  if (declared.includes('blob') || declared === '') return 'blob'
  if (declared.includes('real') || declared.includes('floa') || declared.includes('doub')) return 'real'
  return 'numeric'
}

const SQLITE: Readonly<Record<FieldType, readonly string[]>> = {
  // A numeric affinity would turn an all-digit string into a number.
  string: ['text', 'blob'],
  json: ['text', 'blob'],
  number: ['integer', 'real', 'numeric'],
  boolean: ['integer', 'real', 'numeric'],
  // Gatehouse writes ISO text; an integer or real column holds the application's epoch numbers, which would read back wrong.
  date: ['text', 'blob', 'numeric'],
}

const STRINGS = ['text', 'varchar', 'character varying', 'char', 'character', 'bpchar', 'citext', 'tinytext', 'mediumtext', 'longtext']
const NUMBERS = ['int2', 'int4', 'int8', 'smallint', 'integer', 'int', 'bigint', 'mediumint', 'tinyint', 'float4', 'float8', 'real', 'double', 'double precision', 'float', 'numeric', 'decimal']

const SERVER: Readonly<Record<FieldType, readonly string[]>> = {
  string: STRINGS,
  json: ['json', 'jsonb', ...STRINGS],
  number: NUMBERS,
  // MySQL and MariaDB report BOOLEAN as tinyint.
  boolean: ['bool', 'boolean', 'tinyint'],
  date: ['timestamptz', 'timestamp', 'timestamp with time zone', 'timestamp without time zone', 'datetime'],
}

/**
 * Whether a column of `dataType` (as introspect.ts reports it) holds a field
 * of `type`: the types Gatehouse creates (column-types.ts) and their near
 * relatives (VARCHAR for TEXT, INT for BIGINT, TIMESTAMP for TIMESTAMPTZ).
 *
 * @example
 * fits('string', 'int4', 'postgres') // false
 */
export function fits(type: FieldType, dataType: string, dialect: SqlDialect): boolean {
  const base = dataType.replace(/\(.*\)/, '').replace(/\s+unsigned\b/, '').trim()
  if (dialect === 'sqlite') return SQLITE[type].includes(sqliteAffinity(base))
  return SERVER[type].includes(base)
}
