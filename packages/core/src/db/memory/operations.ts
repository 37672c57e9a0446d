/**
 * @module
 * The in-memory adapter's operations as synchronous functions over one
 * `Tables` value. Being synchronous is what makes each of them atomic: no
 * other caller can run between `consume`'s find and its delete. Writes
 * receive a fork, apply their change, then check constraints; throwing
 * discards the fork (see tables.ts).
 */
import { DatabaseError, toWhere, type Row, type SortBy, type WhereInput } from '../adapter.js'
import { getModel, type Schema } from '../schema.js'
import { matchesWhere, validateWhere } from '../where.js'
import { checkReferencedFields, checkRow, deleteRows } from './constraints.js'
import { pageRows, sortRows } from './sort.js'
import type { Tables } from './tables.js'
import { copyRow, prepareCreate, preparePatch } from './values.js'

export interface FindManyArgs {
  readonly model: string
  readonly where?: WhereInput
  readonly sortBy?: SortBy | readonly SortBy[]
  readonly limit?: number
  readonly offset?: number
}

export function createRow(schema: Schema, tables: Tables, model: string, data: Row): Row {
  const row = prepareCreate(schema, model, data)
  const id = String(row.id)
  if (tables.rows(model).has(id)) throw duplicateId(model)
  tables.writable(model).set(id, row)
  checkRow(schema, tables, model, row)
  return copyRow(row)
}

export function findOne(schema: Schema, tables: Tables, model: string, where: WhereInput): Row | null {
  const [row] = select(schema, tables, model, where)
  return row ? copyRow(row) : null
}

export function findMany(schema: Schema, tables: Tables, args: FindManyArgs): Row[] {
  const { fields } = getModel(schema, args.model)
  const keys = args.sortBy === undefined ? [] : Array.isArray(args.sortBy) ? args.sortBy : [args.sortBy]
  for (const key of keys) {
    if (key.field !== 'id' && !(key.field in fields)) throw new Error(`Cannot sort model "${args.model}" by unknown field "${key.field}"`)
  }
  const rows = sortRows(select(schema, tables, args.model, args.where), args.sortBy)
  return pageRows(rows, args.limit, args.offset).map((row) => copyRow(row))
}

/** The first matching row by id, as `update` and `lock` pick it. */
export function findFirstById(schema: Schema, tables: Tables, model: string, where: WhereInput): Row | null {
  const row = firstById(select(schema, tables, model, where))
  return row ? copyRow(row) : null
}

export function count(schema: Schema, tables: Tables, model: string, where: WhereInput | undefined): number {
  return select(schema, tables, model, where).length
}

export function updateRow(schema: Schema, tables: Tables, model: string, where: WhereInput, update: Row): Row | null {
  const patch = preparePatch(schema, model, update)
  const target = firstById(select(schema, tables, model, where))
  if (!target) return null
  return copyRow(applyPatch(schema, tables, model, [target], patch)[0] ?? target)
}

export function updateRows(schema: Schema, tables: Tables, model: string, where: WhereInput, update: Row): number {
  const patch = preparePatch(schema, model, update)
  return applyPatch(schema, tables, model, select(schema, tables, model, where), patch).length
}

export function deleteRow(schema: Schema, tables: Tables, model: string, where: WhereInput): Row | null {
  const target = firstById(select(schema, tables, model, where))
  if (!target) return null
  deleteRows(schema, tables, model, [String(target.id)])
  return copyRow(target)
}

export function deleteMatching(schema: Schema, tables: Tables, model: string, where: WhereInput): number {
  const targets = select(schema, tables, model, where)
  deleteRows(
    schema,
    tables,
    model,
    targets.map((row) => String(row.id)),
  )
  return targets.length
}

/** Writes every patched row first, then checks them, so duplicates within one statement are caught too. */
function applyPatch(schema: Schema, tables: Tables, model: string, targets: readonly Row[], patch: Row): Row[] {
  const table = tables.writable(model)
  const updated = targets.map((target) => {
    const next = { ...target, ...patch }
    table.set(String(target.id), next)
    return next
  })
  targets.forEach((target, index) => {
    const next = updated[index] ?? target
    checkRow(schema, tables, model, next)
    checkReferencedFields(schema, tables, model, target, next)
  })
  return updated
}

/** The stored rows matching `where`, in insertion order; a lookup by id skips the scan. */
function select(schema: Schema, tables: Tables, model: string, where: WhereInput | undefined): Row[] {
  validateWhere(schema, model, where)
  const rows = tables.rows(model)
  const clause = toWhere(where)
  if (clause && 'field' in clause && clause.field === 'id' && (clause.operator ?? 'eq') === 'eq' && !clause.insensitive && typeof clause.value === 'string') {
    const row = rows.get(clause.value)
    return row ? [row] : []
  }
  return [...rows.values()].filter((row) => matchesWhere(row, clause))
}

/** The adapter contract's tie-break for single-row writes: the smallest id. */
function firstById(rows: readonly Row[]): Row | undefined {
  let first: Row | undefined
  for (const row of rows) if (first === undefined || String(row.id) < String(first.id)) first = row
  return first
}

function duplicateId(model: string): DatabaseError {
  return new DatabaseError('UNIQUE_VIOLATION', `${model}.id must be unique`)
}
