/**
 * @module
 * Reads what already exists in the database, so the migrator only emits the
 * statements that are missing: tables and their columns (with type and
 * nullability) through Kysely's introspection, indexes (with their columns
 * and uniqueness) through each dialect's catalog, since Kysely does not
 * introspect indexes.
 *
 * Only the current schema is read: PostgreSQL's `current_schema()` (the head
 * of search_path), MySQL's `database()`, SQLite's `main`.
 */
import { sql, type Kysely } from 'kysely'
import type { SqlDialect } from './dialect.js'

export interface ExistingIndex {
  readonly table: string
  readonly name: string
  readonly unique: boolean
  /** Columns in index order. */
  readonly columns: readonly string[]
}

export interface ExistingColumn {
  /** As the catalog reports it, lowercased: `text`, `varchar`, `int4`, ... */
  readonly dataType: string
  readonly nullable: boolean
  readonly hasDefault: boolean
  /** SERIAL, AUTO_INCREMENT, SQLite's INTEGER PRIMARY KEY: filled in by the database when left out. */
  readonly autoIncrement: boolean
  /** MySQL only: the collation of a text column (a foreign key must match the column it references). */
  readonly collation?: string | undefined
}

export interface DatabaseState {
  /** Table name → its column names. */
  readonly tables: ReadonlyMap<string, ReadonlySet<string>>
  /** Table name → column name → its type, nullability and whether it has a DEFAULT. */
  readonly columns: ReadonlyMap<string, ReadonlyMap<string, ExistingColumn>>
  readonly indexes: readonly ExistingIndex[]
}

interface IndexColumnRow {
  tbl: string
  idx: string
  uniq: unknown
  col: string
  seq: unknown
}

/**
 * Lists the tables, columns and indexes of the current schema.
 *
 * @example
 * const state = await introspect(db, 'postgres')
 * state.tables.get('user')?.has('email')
 */
export async function introspect<DB>(db: Kysely<DB>, dialect: SqlDialect): Promise<DatabaseState> {
  const all = await db.introspection.getTables()
  const current = dialect === 'postgres' ? await currentSchema(db) : undefined
  const collations = dialect === 'mysql' ? await mysqlCollations(db) : undefined
  const tables = new Map<string, ReadonlySet<string>>()
  const columns = new Map<string, ReadonlyMap<string, ExistingColumn>>()
  for (const table of all) {
    if (table.isView) continue
    // Kysely lists every schema's tables on PostgreSQL; a table of the same name elsewhere is not ours.
    if (current !== undefined && table.schema !== current) continue
    tables.set(table.name, new Set(table.columns.map((column) => column.name)))
    columns.set(
      table.name,
      new Map(table.columns.map((column) => [column.name, {
          dataType: column.dataType.toLowerCase(),
          nullable: column.isNullable,
          hasDefault: column.hasDefaultValue,
          autoIncrement: column.isAutoIncrementing,
          collation: collations?.get(`${table.name}\u0000${column.name}`),
        }])),
    )
  }
  return { tables, columns, indexes: await indexes(db, dialect) }
}

async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db)
  return rows[0]?.name ?? undefined
}

async function mysqlCollations<DB>(db: Kysely<DB>): Promise<Map<string, string>> {
  const { rows } = await sql<{ tbl: string; col: string; coll: string | null }>`select table_name as tbl, column_name as col, collation_name as coll
    from information_schema.columns where table_schema = database()`.execute(db)
  return new Map(rows.flatMap((row) => (row.coll === null ? [] : [[`${row.tbl}\u0000${row.col}`, row.coll.toLowerCase()] as const])))
}

function indexQuery(dialect: SqlDialect) {
  switch (dialect) {
    case 'sqlite':
      // pragma_index_list also reports the automatic indexes behind UNIQUE and PRIMARY KEY constraints.
      return sql<IndexColumnRow>`select m.name as tbl, il.name as idx, il."unique" as uniq, ii.name as col, ii.seqno as seq
        from sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
        where m.type = 'table'`
    case 'postgres':
      return sql<IndexColumnRow>`select t.relname as tbl, i.relname as idx, ix.indisunique as uniq, a.attname as col,
          array_position(ix.indkey::int2[], a.attnum) as seq
        from pg_index ix
        join pg_class t on t.oid = ix.indrelid
        join pg_class i on i.oid = ix.indexrelid
        join pg_namespace n on n.oid = t.relnamespace
        join pg_attribute a on a.attrelid = t.oid and a.attnum = any(ix.indkey::int2[])
        where n.nspname = current_schema()`
    case 'mysql':
      return sql<IndexColumnRow>`select table_name as tbl, index_name as idx, (non_unique = 0) as uniq, column_name as col,
          seq_in_index as seq
        from information_schema.statistics
        where table_schema = database()`
  }
}

async function indexes<DB>(db: Kysely<DB>, dialect: SqlDialect): Promise<ExistingIndex[]> {
  const { rows } = await indexQuery(dialect).execute(db)
  const byName = new Map<string, { table: string; name: string; unique: boolean; columns: Array<[number, string]> }>()
  for (const row of rows) {
    const key = `${row.tbl}\u0000${row.idx}`
    let entry = byName.get(key)
    if (!entry) {
      entry = { table: row.tbl, name: row.idx, unique: isTrue(row.uniq), columns: [] }
      byName.set(key, entry)
    }
    entry.columns.push([Number(row.seq), row.col])
  }
  return [...byName.values()].map(({ table, name, unique, columns }) => ({
    table,
    name,
    unique,
    columns: columns.sort((a, b) => a[0] - b[0]).map(([, column]) => column),
  }))
}

function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 1n
}
