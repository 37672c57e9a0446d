/**
 * @module
 * The column type each field type gets on each dialect; values.ts converts
 * values to and from these. MySQL is the one with constraints on types:
 * TEXT columns cannot be indexed without a prefix length, so keys, unique,
 * indexed and referencing strings, and strings in a composite unique
 * constraint, are VARCHAR(255) (1020 bytes in utf8mb4, under InnoDB's
 * 3072-byte key limit: up to three such columns fit in one composite key),
 * and every text column carries the
 * `utf8mb4_bin` collation so comparisons are case-sensitive, as on the other
 * backends (a case-insensitive match must be asked for with `insensitive`).
 */
import { sql, type RawBuilder } from 'kysely'
import type { FieldDefinition, ModelDefinition } from '../schema.js'
import type { SqlDialect } from './dialect.js'

const MYSQL_TEXT_SUFFIX = 'character set utf8mb4 collate utf8mb4_bin'

/** Table options for MySQL's CREATE TABLE: InnoDB for foreign keys and transactions, binary collation for case-sensitivity. */
export const MYSQL_TABLE_OPTIONS = 'engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin'

/**
 * Whether a field's column takes part in a key, index or foreign key (and so
 * must be VARCHAR on MySQL): through its own flags, or by being named in one
 * of its model's composite unique constraints.
 *
 * @example
 * isKeyColumn(coreSchema.account, 'accountId') // true: account is unique on (providerId, accountId)
 */
export function isKeyColumn(model: ModelDefinition, field: string): boolean {
  const definition = fieldOf(model, field)
  if (definition.unique === true || definition.index === true || definition.references !== undefined) return true
  return (model.unique ?? []).some((fields) => fields.includes(field))
}

/** The type of the implicit `id` primary key. */
export function idColumnTypeName(dialect: SqlDialect): string {
  return dialect === 'mysql' ? `varchar(255) ${MYSQL_TEXT_SUFFIX}` : 'text'
}

/**
 * The SQL type of a field's column. It takes the model, not only the field:
 * a composite unique constraint on the model changes a string's type on MySQL.
 *
 * @example
 * columnType({ fields: { at: { type: 'date' } } }, 'at', 'postgres') // timestamptz
 * columnType({ fields: { email: { type: 'string', unique: true } } }, 'email', 'mysql') // varchar(255) character set utf8mb4 collate utf8mb4_bin
 */
export function columnType(model: ModelDefinition, field: string, dialect: SqlDialect): RawBuilder<unknown> {
  return sql.raw(columnTypeName(model, field, dialect))
}

/** Whether MySQL stores this field in a TEXT-family column (whose DEFAULT must be written as an expression). */
export function isMysqlTextColumn(model: ModelDefinition, field: string): boolean {
  const { type } = fieldOf(model, field)
  return type === 'json' || (type === 'string' && !isKeyColumn(model, field))
}

function fieldOf(model: ModelDefinition, field: string): FieldDefinition {
  const definition = model.fields[field]
  if (!definition) throw new Error(`Unknown field "${field}"`)
  return definition
}

export function columnTypeName(model: ModelDefinition, name: string, dialect: SqlDialect): string {
  const field = fieldOf(model, name)
  switch (field.type) {
    case 'string':
      if (dialect !== 'mysql') return 'text'
      return `${isKeyColumn(model, name) ? 'varchar(255)' : 'text'} ${MYSQL_TEXT_SUFFIX}`
    case 'number':
      if (field.bigint === true) return dialect === 'sqlite' ? 'integer' : 'bigint'
      return dialect === 'postgres' ? 'double precision' : dialect === 'mysql' ? 'double' : 'real'
    case 'boolean':
      return dialect === 'sqlite' ? 'integer' : 'boolean'
    case 'date':
      // MySQL: DATETIME(3) keeps milliseconds; the pool runs in UTC (timezone 'Z') so no offset is applied.
      return dialect === 'postgres' ? 'timestamptz' : dialect === 'mysql' ? 'datetime(3)' : 'text'
    case 'json':
      // LONGTEXT on MySQL: TEXT stops at 64 KiB, which a metadata blob can pass.
      return dialect === 'mysql' ? `longtext ${MYSQL_TEXT_SUFFIX}` : 'text'
  }
}
