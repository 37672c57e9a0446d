/**
 * Table → its columns, from rows of a database catalog query
 * (`select table_name as tbl, column_name as col …`): what the conformance
 * suite's `listColumns` returns.
 */
export function catalog(rows: readonly { readonly tbl: string; readonly col: string }[]): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>()
  for (const { tbl, col } of rows) tables.set(tbl, (tables.get(tbl) ?? new Set()).add(col))
  return tables
}
