/**
 * @module
 * Gatehouse's models as the generated Prisma Client knows them: the model
 * and field names come from core's `prismaNames`, the function
 * `gatehouse generate --format prisma` names them with, so the adapter finds
 * every model and field under the name the schema gave it; the table and
 * column names (for the few raw statements) from the same schema.
 */
import { columnName, prismaNames, tableName, type FieldDefinition, type Schema } from '@gatehouse/core'
import { delegateOf, type Client, type Delegate } from './client.js'

export interface BoundField {
  /** The Gatehouse field name. */
  readonly field: string
  /** Its Prisma field name. */
  readonly prisma: string
  readonly definition: FieldDefinition
  readonly column: string
}

export interface BoundModel {
  readonly name: string
  /** The delegate's property on the client: the Prisma model name with a lower-case first letter. */
  readonly delegate: string
  /** `id` first, then every field of the Gatehouse model. */
  readonly fields: readonly BoundField[]
  readonly byField: ReadonlyMap<string, BoundField>
  /** Prisma's `select` for every field. */
  readonly select: Readonly<Record<string, true>>
  /** The table, as the raw statements name it: `["app", "notes"]` for `app.notes`. */
  readonly table: readonly string[]
  /** Forward relation fields by `<field> <model>.<references>`, for joins Prisma can answer with a nested select. */
  readonly relations: ReadonlyMap<string, string>
}

/** The id as a field: a required string, like every model's primary key. */
const ID: FieldDefinition = { type: 'string' }

/** The key `relations` is looked up by. */
export function relationKey(field: string, model: string, references: string): string {
  return `${field} ${model}.${references}`
}

/**
 * Every model of `schema` with its Prisma names. Throws when `client` lacks
 * one: a client generated before a plugin was added.
 *
 * @example
 * const models = bindModels(schema, client)
 * models.get('session')?.delegate // 'session'
 */
export function bindModels(schema: Schema, client: Client): ReadonlyMap<string, BoundModel> {
  const names = prismaNames(schema)
  const models = new Map<string, BoundModel>()
  for (const [model, definition] of Object.entries(schema)) {
    const named = names.models.get(model)
    if (!named) throw new Error(`No Prisma name for model "${model}"`)
    const delegate = named.name.charAt(0).toLowerCase() + named.name.slice(1)
    if (!delegateOf(client, delegate)) {
      throw new Error(
        `prismaAdapter: the Prisma Client has no model ${named.name} (prisma.${delegate}) for Gatehouse's "${model}". ` +
          'Write the schema again with `gatehouse generate --format prisma` and run `prisma generate` (docs/adapters.md#using-prisma).',
      )
    }
    const fields: BoundField[] = [['id', ID] as const, ...Object.entries(definition.fields)].map(([field, fieldDefinition]) => ({
      field,
      prisma: named.fields.get(field) ?? field,
      definition: fieldDefinition,
      column: columnName(schema, model, field),
    }))
    const relations = new Map<string, string>()
    for (const relation of names.relations) {
      if (relation.model === model) relations.set(relationKey(relation.field, relation.reference.model, relation.reference.field), relation.forward)
    }
    models.set(model, {
      name: model,
      delegate,
      fields,
      byField: new Map(fields.map((bound) => [bound.field, bound])),
      select: Object.fromEntries(fields.map(({ prisma }) => [prisma, true] as const)),
      table: tableName(schema, model).split('.').map((part) => part.trim()),
      relations,
    })
  }
  return models
}

export function modelOf(models: ReadonlyMap<string, BoundModel>, model: string): BoundModel {
  const bound = models.get(model)
  if (!bound) throw new Error(`Unknown model "${model}"`)
  return bound
}

export function fieldOf(model: BoundModel, field: string): BoundField {
  const bound = model.byField.get(field)
  if (!bound) throw new Error(`Unknown field "${model.name}.${field}"`)
  return bound
}

/** The model's delegate on `client` (the root client or a transaction's); bindModels checked it exists. */
export function delegate(client: Client, model: BoundModel): Delegate {
  const found = delegateOf(client, model.delegate)
  if (!found) throw new Error(`The Prisma Client has no model delegate "${model.delegate}"`)
  return found
}
