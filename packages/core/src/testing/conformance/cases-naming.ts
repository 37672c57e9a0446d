/**
 * @module
 * The conformance case for names (docs/adapters.md#naming-tables-and-columns):
 * the database itself, read through its catalog, holds every model under the
 * schema's table name and every field, `id` included, under the schema's
 * column name. Run on `namedConformanceSchema` it proves an adapter writes
 * the mapped names instead of the model and field names.
 */
import { columnName, tableName } from '../../db/schema.js'
import { fail } from './assert.js'
import type { CaseDefinition } from './types.js'

export const namingCases: readonly CaseDefinition[] = [
  {
    name: 'the database names every table and column as the schema does',
    needsCatalog: true,
    async body({ schema, listColumns }) {
      if (!listColumns) fail('the case needs listColumns')
      const catalog = await listColumns()
      for (const model of Object.keys(schema)) {
        const table = tableName(schema, model)
        const columns = catalog.get(table)
        if (!columns) fail(`model "${model}" has no table "${table}" in the database; its tables are ${[...catalog.keys()].join(', ')}`)
        for (const field of ['id', ...Object.keys(schema[model]?.fields ?? {})]) {
          const column = columnName(schema, model, field)
          if (!columns.has(column)) fail(`field "${model}.${field}" has no column "${column}" in table "${table}"; its columns are ${[...columns].join(', ')}`)
        }
      }
    },
  },
]
