/**
 * @module
 * The constraints a SQL schema would enforce, enforced by the in-memory
 * adapter: unique fields and composite unique constraints (nulls never
 * collide, as in SQL), foreign keys on
 * write, and `onDelete` cascade / set null / restrict on delete. Checks run
 * on a fork of the tables after the write is applied, so a failure simply
 * discards the fork and nothing is half-written.
 */
import { DatabaseError, type Row } from '../adapter.js'
import { getModel, isRequired, type FieldReference, type Schema } from '../schema.js'
import type { Tables } from './tables.js'
import { sameValue } from './values.js'

/** Unique, composite unique and foreign key checks for a row just written to `model`. */
export function checkRow(schema: Schema, tables: Tables, model: string, row: Row): void {
  const modelDefinition = getModel(schema, model)
  for (const [field, definition] of Object.entries(modelDefinition.fields)) {
    const value = row[field]
    if (value === null || value === undefined) continue
    if (definition.unique) {
      for (const other of tables.rows(model).values()) {
        if (other.id !== row.id && sameValue(other[field], value)) {
          throw new DatabaseError('UNIQUE_VIOLATION', `${model}.${field} must be unique`)
        }
      }
    }
    if (definition.references && !hasRow(tables, definition.references, value)) {
      throw new DatabaseError(
        'FOREIGN_KEY_VIOLATION',
        `${model}.${field} references a missing ${definition.references.model}.${definition.references.field}`,
      )
    }
  }
  for (const fields of modelDefinition.unique ?? []) {
    // SQL semantics: NULL equals nothing, so a tuple holding one is never a duplicate.
    if (fields.some((field) => row[field] === null || row[field] === undefined)) continue
    for (const other of tables.rows(model).values()) {
      if (other.id !== row.id && fields.every((field) => sameValue(other[field], row[field]))) {
        throw new DatabaseError('UNIQUE_VIOLATION', `(${fields.map((field) => `${model}.${field}`).join(', ')}) must be unique together`)
      }
    }
  }
}

/** Refuses to change a field other rows reference (there is no ON UPDATE CASCADE). */
export function checkReferencedFields(schema: Schema, tables: Tables, model: string, before: Row, after: Row): void {
  for (const { model: child, field, reference } of referencesTo(schema, model)) {
    const old = before[reference.field]
    if (sameValue(old, after[reference.field]) || old === null || old === undefined) continue
    for (const row of tables.rows(child).values()) {
      if (sameValue(row[field], old)) {
        throw new DatabaseError('FOREIGN_KEY_VIOLATION', `${model}.${reference.field} is referenced by ${child}.${field}`)
      }
    }
  }
}

/** Deletes rows by id and applies every `onDelete` rule that reaches, transitively. */
export function deleteRows(schema: Schema, tables: Tables, model: string, ids: Iterable<string>): void {
  for (const id of ids) {
    const row = tables.rows(model).get(id)
    if (!row) continue
    tables.writable(model).delete(id)
    for (const { model: child, field, reference } of referencesTo(schema, model)) {
      const value = row[reference.field]
      if (value === null || value === undefined) continue
      const dependants = [...tables.rows(child).values()].filter((other) => sameValue(other[field], value))
      if (dependants.length === 0) continue
      const onDelete = reference.onDelete ?? 'restrict'
      if (onDelete === 'cascade') {
        deleteRows(
          schema,
          tables,
          child,
          dependants.map((dependant) => String(dependant.id)),
        )
      } else if (onDelete === 'set null') {
        const definition = getModel(schema, child).fields[field]
        if (definition && isRequired(definition)) {
          throw new DatabaseError('NOT_NULL_VIOLATION', `${child}.${field} is required and cannot be set to null on delete`)
        }
        const table = tables.writable(child)
        for (const dependant of dependants) table.set(String(dependant.id), { ...dependant, [field]: null })
      } else {
        throw new DatabaseError('FOREIGN_KEY_VIOLATION', `${model} "${id}" is still referenced by ${child}.${field}`)
      }
    }
  }
}

function hasRow(tables: Tables, reference: FieldReference, value: unknown): boolean {
  const rows = tables.rows(reference.model)
  if (reference.field === 'id') return typeof value === 'string' && rows.has(value)
  for (const row of rows.values()) if (sameValue(row[reference.field], value)) return true
  return false
}

interface Incoming {
  readonly model: string
  readonly field: string
  readonly reference: FieldReference
}

function referencesTo(schema: Schema, model: string): Incoming[] {
  const incoming: Incoming[] = []
  for (const [child, definition] of Object.entries(schema)) {
    for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
      if (fieldDefinition.references?.model === model) incoming.push({ model: child, field, reference: fieldDefinition.references })
    }
  }
  return incoming
}
