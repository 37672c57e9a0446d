/**
 * @module
 * The names the Prisma output (cli/generate-prisma.ts) gives models, fields
 * and relations, and that `@gatehouse/prisma` finds the generated client's
 * models and fields under (docs/adapters.md#using-prisma): one function for
 * both, so the adapter and the schema it reads cannot drift apart.
 * Gatehouse's model and field names need not be Prisma identifiers
 * (`audit-entry`, `2fa`), and a relation needs a field on both models it
 * joins, so the names are chosen here, once for the whole schema, so that
 * none collides within a model; the table and column names stay as they
 * are, through `@@map` and `@map`.
 */
import { getModel, type FieldDefinition, type FieldReference, type Schema } from './schema.js'

/** Names Prisma keeps for itself: its scalar types and the generated client's namespaces. */
const RESERVED_MODEL_NAMES = new Set(['String', 'Boolean', 'Int', 'BigInt', 'Float', 'Decimal', 'DateTime', 'Json', 'Bytes', 'Unsupported', 'Prisma', 'PrismaClient'])

export interface ModelNames {
  /** The model's Prisma name, PascalCase. */
  readonly name: string
  /** Its Prisma field name for each Gatehouse field, `id` included. */
  readonly fields: ReadonlyMap<string, string>
}

/** A reference between two models, with the fields Prisma shows it through. */
export interface Relation {
  /** The referencing model and field. */
  readonly model: string
  readonly field: string
  readonly definition: FieldDefinition
  readonly reference: FieldReference
  /** The relation field on the referencing model: `user` for `userId`. */
  readonly forward: string
  /** The field on the referenced model listing the referencing rows: `sessions`. */
  readonly back: string
  /** Set when Prisma needs the relation named: two relations between one pair of models, or a model referencing itself. */
  readonly label?: string
}

export interface SchemaNames {
  readonly models: ReadonlyMap<string, ModelNames>
  readonly relations: readonly Relation[]
}

/**
 * Every Prisma name the output uses.
 *
 * @example
 * const { models, relations } = nameSchema(coreSchema)
 * models.get('rateLimit')?.name // 'RateLimit'
 * relations[0] // { model: 'session', field: 'userId', forward: 'user', back: 'sessions', … }
 */
export function nameSchema(schema: Schema): SchemaNames {
  const models = new Map<string, ModelNames>()
  // Per model, every field name its block uses so far, relation fields included.
  const taken = new Map<string, Set<string>>()
  const modelNames = new Set<string>()
  for (const model of Object.keys(schema)) {
    let name = identifier(model, 'Model', true)
    if (RESERVED_MODEL_NAMES.has(name)) name = `${name}Model`
    name = claim(name, modelNames)
    const used = new Set(['id'])
    const fields = new Map([['id', 'id']])
    for (const field of Object.keys(getModel(schema, model).fields)) fields.set(field, claim(identifier(field, 'field', false), used))
    models.set(model, { name, fields })
    taken.set(model, used)
  }
  return { models, relations: nameRelations(schema, models, taken) }
}

type Reference = Pick<Relation, 'model' | 'field' | 'definition' | 'reference'>

/**
 * Names both sides of every reference. All forward fields first, so a back
 * field, which is only a convenience, is the one to take a suffix when two
 * names meet.
 */
function nameRelations(schema: Schema, models: ReadonlyMap<string, ModelNames>, taken: ReadonlyMap<string, Set<string>>): Relation[] {
  const references = collectReferences(schema)
  const withForward = references.map((reference) => {
    const role = relationBase(lookup(lookup(models, reference.model).fields, reference.field))
    return { ...reference, role, forward: claim(role, lookup(taken, reference.model)) }
  })
  const labels = new Set<string>()
  return withForward.map(({ role, ...reference }): Relation => {
    const source = lookup(models, reference.model).name
    const ambiguous = reference.model === reference.reference.model || references.filter((other) => samePair(other, reference)).length > 1
    const oneToOne = reference.definition.unique === true
    // `notesByOwner` on `User` for `Note.ownerId`, when a second relation joins the two.
    const back = claim(lowerFirst(source) + (oneToOne ? '' : 's') + (ambiguous ? `By${upperFirst(role)}` : ''), lookup(taken, reference.reference.model))
    return ambiguous ? { ...reference, back, label: claim(`${source}${upperFirst(role)}`, labels) } : { ...reference, back }
  })
}

function collectReferences(schema: Schema): Reference[] {
  const references: Reference[] = []
  for (const [model, { fields }] of Object.entries(schema)) {
    for (const [field, definition] of Object.entries(fields)) {
      if (definition.references) references.push({ model, field, definition, reference: definition.references })
    }
  }
  return references
}

/** Two references join the same pair of models, in either direction. */
function samePair(a: Reference, b: Reference): boolean {
  return (a.model === b.model && a.reference.model === b.reference.model) || (a.model === b.reference.model && a.reference.model === b.model)
}

/** `userId` → `user`, `inviter_id` → `inviter`; a field not ending in an id gets `Ref`. */
function relationBase(field: string): string {
  const stripped = field.replace(/_?(Id|ID|id)$/, '')
  return stripped === '' || stripped === field ? `${field}Ref` : stripped
}

/**
 * A valid Prisma identifier for a Gatehouse name: letters, digits and `_`,
 * starting with a letter. Model names are PascalCase, as Prisma's are.
 */
function identifier(name: string, prefix: string, pascal: boolean): string {
  const words = name.split(/[^A-Za-z0-9_]+/).filter((word) => word !== '')
  const joined = words.map((word, index) => (pascal || index > 0 ? upperFirst(word) : word)).join('')
  return /^[A-Za-z]/.test(joined) ? joined : `${prefix}${upperFirst(joined)}`
}

/** `name`, or `name2`, `name3`… when taken; the result is added to `used`. */
function claim(name: string, used: Set<string>): string {
  let claimed = name
  for (let suffix = 2; used.has(claimed); suffix++) claimed = `${name}${suffix}`
  used.add(claimed)
  return claimed
}

/** A name chosen by nameSchema; every model and field has one, so a miss is a bug here. */
export function lookup<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const found = map.get(key)
  if (found === undefined) throw new Error(`No Prisma name for "${String(key)}"`)
  return found
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
