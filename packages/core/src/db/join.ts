/**
 * @module
 * Many-to-one joins, independent of any backend: `resolveJoins` checks a
 * `join` argument against the schema and hands adapters a plain list to
 * compile (SQL) or look up (in memory). Every adapter calls it first, so a
 * misspelt model or field fails loudly the same way everywhere instead of
 * joining nothing. get-session reads a session with its user through one
 * join (session.userId → user.id).
 */
import type { JoinSpec, Joins } from './adapter.js'
import { getModel, type FieldDefinition, type Schema } from './schema.js'

/** One checked join: where the joined row goes and how it is matched. */
export interface ResolvedJoin {
  /** The key the joined row is returned under. */
  readonly alias: string
  readonly model: string
  /** Field of the base model holding the reference. */
  readonly field: string
  /** Field of the joined model it must equal: `id` or a unique field. */
  readonly references: string
}

/** The implicit primary key every model has (schema.ts). */
const ID_FIELD: FieldDefinition = { type: 'string', unique: true }

function fieldOf(schema: Schema, model: string, field: string): FieldDefinition | undefined {
  if (field === 'id') return ID_FIELD
  const { fields } = getModel(schema, model)
  return Object.hasOwn(fields, field) ? fields[field] : undefined
}

/**
 * Checks `join` for reads on `model` and returns it as a list, in key order.
 * Throws a descriptive `Error` for an alias that collides with a field of
 * `model` (the joined row would overwrite it), an unknown model or field, a
 * `references` that is neither `id` nor unique (the join would no longer be
 * many-to-one and could repeat base rows), or fields of different types.
 *
 * @example
 * resolveJoins(schema, 'session', { user: { model: 'user', on: { field: 'userId', references: 'id' } } })
 * // [{ alias: 'user', model: 'user', field: 'userId', references: 'id' }]
 */
export function resolveJoins(schema: Schema, model: string, join: Joins | undefined): ResolvedJoin[] {
  if (join === undefined) return []
  const base = getModel(schema, model)
  const problem = (alias: string, message: string): never => {
    throw new Error(`Invalid join "${alias}" on model "${model}": ${message}`)
  }
  return Object.entries(join).map(([alias, spec]: [string, JoinSpec]) => {
    if (alias === '') return problem(alias, 'the alias must not be empty')
    // Assigning `row.__proto__` would replace the row's prototype rather than add a key.
    if (alias === '__proto__') return problem(alias, 'the alias "__proto__" is not allowed')
    if (alias === 'id' || Object.hasOwn(base.fields, alias)) {
      return problem(alias, `the alias collides with the field "${model}.${alias}"`)
    }
    if (typeof spec !== 'object' || spec === null || typeof spec.on !== 'object' || spec.on === null) {
      return problem(alias, 'expected { model, on: { field, references } }')
    }
    if (typeof spec.model !== 'string' || !Object.hasOwn(schema, spec.model)) return problem(alias, `unknown model "${String(spec.model)}"`)
    const { field, references } = spec.on
    const local = typeof field === 'string' ? fieldOf(schema, model, field) : undefined
    if (!local) return problem(alias, `unknown field "${model}.${String(field)}"`)
    const remote = typeof references === 'string' ? fieldOf(schema, spec.model, references) : undefined
    if (!remote) return problem(alias, `unknown field "${spec.model}.${String(references)}"`)
    if (remote.unique !== true) return problem(alias, `"${spec.model}.${references}" must be id or a unique field`)
    if (local.type !== remote.type || local.type === 'json') {
      return problem(alias, `"${model}.${field}" (${local.type}) cannot be matched with "${spec.model}.${references}" (${remote.type})`)
    }
    return { alias, model: spec.model, field, references }
  })
}
