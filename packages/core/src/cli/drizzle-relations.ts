/**
 * @module
 * The `relations()` blocks of the Drizzle schema module
 * (docs/adapters.md#the-schema-module): for every foreign key, a `one`
 * relation on the table that holds it and a `many` relation on the table it
 * points at, so Drizzle's relational queries can load Gatehouse's rows with
 * their owners (`db.query.session.findMany({ with: { user: true } })`) and
 * back (`db.query.user.findFirst({ with: { sessions: true } })`). Gatehouse's
 * adapter does not use them: its joins are its own.
 */
import { getModel, type Schema } from '../db/schema.js'
import { IDENTIFIER, literal, member } from './drizzle-syntax.js'

interface Relation {
  readonly key: string
  readonly text: string
}

/**
 * One `export const <table>Relations = relations(...)` per table that holds
 * or receives a foreign key, in `models` order; `constants` are the tables'
 * exported names, `taken` every other name the module declares.
 *
 * @example
 * drizzleRelations(coreSchema, ['user', 'session'], new Map([['user', 'user'], ['session', 'session']]), new Set())
 * // export const sessionRelations = relations(session, ({ one }) => ({
 * //   user: one(user, { fields: [session.userId], references: [user.id] }),
 * // }))
 */
export function drizzleRelations(schema: Schema, models: readonly string[], constants: ReadonlyMap<string, string>, taken: ReadonlySet<string>): string[] {
  const byModel = new Map<string, { readonly ones: Relation[]; readonly manies: Relation[]; readonly keys: Set<string> }>()
  const entry = (model: string) => {
    let found = byModel.get(model)
    if (!found) {
      // A relation key shares the row object with the columns: it must differ from every field.
      found = { ones: [], manies: [], keys: new Set(['id', ...Object.keys(getModel(schema, model).fields)]) }
      byModel.set(model, found)
    }
    return found
  }
  const constant = (model: string) => constants.get(model) ?? model
  for (const model of models) {
    const references = Object.entries(getModel(schema, model).fields).flatMap(([field, definition]) =>
      definition.references && definition.references.model in schema ? [{ field, target: definition.references.model, targetField: definition.references.field }] : [],
    )
    for (const { field, target, targetField } of references) {
      // Two keys from one table to another, or one to itself, need a name that pairs each `one` with its `many`.
      const paired = target === model || references.filter((other) => other.target === target).length > 1
      const relationName = paired ? `, relationName: ${literal(`${model}_${field}`)}` : ''
      const source = entry(model)
      const oneKey = freeKey(field.length > 2 && field.endsWith('Id') ? field.slice(0, -2) : `${field}Row`, source.keys)
      source.ones.push({
        key: oneKey,
        text: `${oneKey}: one(${constant(target)}, { fields: [${member(constant(model), field)}], references: [${member(constant(target), targetField)}]${relationName} })`,
      })
      const destination = entry(target)
      const plural = pluralize(constant(model))
      const manyKey = freeKey(paired ? `${plural}As${oneKey.charAt(0).toUpperCase()}${oneKey.slice(1)}` : plural, destination.keys)
      destination.manies.push({ key: manyKey, text: `${manyKey}: many(${constant(model)}${paired ? `, { relationName: ${literal(`${model}_${field}`)} }` : ''})` })
    }
  }
  const names = new Set(taken)
  return models.flatMap((model) => {
    const found = byModel.get(model)
    if (!found) return []
    let name = `${constant(model)}Relations`
    while (names.has(name)) name = `${name}_`
    names.add(name)
    const helpers = [found.ones.length > 0 ? 'one' : '', found.manies.length > 0 ? 'many' : ''].filter((helper) => helper !== '')
    const body = [...found.ones, ...found.manies].map((relation) => `  ${relation.text},`).join('\n')
    return [`export const ${name} = relations(${constant(model)}, ({ ${helpers.join(', ')} }) => ({\n${body}\n}))`]
  })
}

/** `key`, or with `Rows` added until no column or other relation of the table has the name. */
function freeKey(key: string, keys: Set<string>): string {
  let free = IDENTIFIER.test(key) ? key : `r${key.replace(/[^\w$]/g, '_')}`
  while (keys.has(free)) free = `${free}Rows`
  keys.add(free)
  return free
}

/** English plurals of the common shapes (`sessions`, `addresses`, `policies`); a relation name only, never a table name. */
function pluralize(word: string): string {
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`
  return `${word}s`
}
