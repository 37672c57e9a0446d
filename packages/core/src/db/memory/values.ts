/**
 * @module
 * How the in-memory adapter turns caller data into stored rows and back.
 * It is deliberately strict, so code tested against it does not pass here
 * and fail on a SQL backend: unknown fields and values of the wrong type are
 * errors, required fields must be set, and every stored row carries every
 * field (null when unset). JSON values are stored as their JSON text would
 * parse, as a SQL backend returns them (a `Date` inside JSON comes back as a
 * string); dates and JSON are copied in and out, so callers never share
 * objects with the store.
 */
import { DatabaseError, type Row } from '../adapter.js'
import { getModel, isRequired, type FieldDefinition, type Schema } from '../schema.js'

/** The full row `create` stores: every field, defaults applied, values checked and copied. */
export function prepareCreate(schema: Schema, model: string, data: Row): Row {
  const { fields } = getModel(schema, model)
  rejectUnknownFields(fields, model, data)
  const id = data.id
  if (id === undefined || id === null) throw new DatabaseError('NOT_NULL_VIOLATION', `${model}.id is required`)
  if (typeof id !== 'string' || id === '') throw new TypeError(`${model}.id must be a non-empty string`)
  const row: Row = { id }
  for (const [field, definition] of Object.entries(fields)) {
    let value = data[field]
    if (value === undefined) value = defaultFor(definition)
    row[field] = normalizeValue(model, field, definition, value)
    if (row[field] === null && isRequired(definition)) {
      throw new DatabaseError('NOT_NULL_VIOLATION', `${model}.${field} is required`)
    }
  }
  return row
}

/** The checked, copied fields an update sets; fields given as `undefined` are left alone. */
export function preparePatch(schema: Schema, model: string, update: Row): Row {
  const { fields } = getModel(schema, model)
  rejectUnknownFields(fields, model, update)
  const patch: Row = {}
  for (const [field, value] of Object.entries(update)) {
    if (value === undefined) continue
    if (field === 'id') throw new Error(`${model}.id cannot be updated`)
    const definition = fields[field]
    if (!definition) continue
    patch[field] = normalizeValue(model, field, definition, value)
    if (patch[field] === null && isRequired(definition)) {
      throw new DatabaseError('NOT_NULL_VIOLATION', `${model}.${field} is required`)
    }
  }
  return patch
}

/** A copy the caller may mutate freely. */
export function copyRow<T extends Row = Row>(row: Row): T {
  const copy: Row = {}
  for (const [field, value] of Object.entries(row)) {
    copy[field] = value instanceof Date ? new Date(value.getTime()) : typeof value === 'object' && value !== null ? structuredClone(value) : value
  }
  // A stored row has exactly the model's fields; `T` is the caller's claim about them, as with every adapter.
  return copy as T
}

/** Compares stored values: dates by time, everything else by identity (JSON is never compared). */
export function sameValue(left: unknown, right: unknown): boolean {
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime()
  return left === right
}

function rejectUnknownFields(fields: Readonly<Record<string, FieldDefinition>>, model: string, data: Row): void {
  for (const field of Object.keys(data)) {
    if (field !== 'id' && !(field in fields)) throw new Error(`Unknown field "${model}.${field}"`)
  }
}

function defaultFor(definition: FieldDefinition): unknown {
  const fallback: unknown = definition.defaultValue
  // The schema allows a constant or a function evaluated at create time.
  return typeof fallback === 'function' ? (fallback as () => unknown)() : fallback
}

function normalizeValue(model: string, field: string, definition: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (definition.type) {
    case 'string':
      if (typeof value === 'string') return value
      break
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value) && (!definition.bigint || Number.isSafeInteger(value))) return value
      break
    case 'boolean':
      if (typeof value === 'boolean') return value
      break
    case 'date':
      if (value instanceof Date && !Number.isNaN(value.getTime())) return new Date(value.getTime())
      break
    case 'json': {
      const text = JSON.stringify(value)
      if (text !== undefined) return JSON.parse(text) as unknown
      break
    }
  }
  throw new TypeError(`${model}.${field} is a ${definition.bigint ? 'bigint ' : ''}${definition.type} field and cannot store ${describeValue(value)}`)
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  if (value instanceof Date) return 'an invalid Date'
  return `${typeof value} ${String(value)}`
}
