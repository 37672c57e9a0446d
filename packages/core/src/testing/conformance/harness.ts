/**
 * @module
 * The adapter's life cycle around the cases: create it once for
 * the suite's schema (`conformanceSchema` unless the options name another), migrate it once if it manages its own schema, and
 * empty every model before each case. After a reset the harness checks that
 * every model really is empty, so a `reset` that forgets a table fails loudly
 * instead of leaking rows into the next case.
 */
import type { Adapter } from '../../db/adapter.js'
import type { Schema } from '../../db/schema.js'
import { fail } from './assert.js'
import { conformanceSchema } from './fixtures.js'
import type { AdapterConformanceOptions } from './types.js'

export interface Harness {
  /** The adapter, created (and migrated) on first use. */
  adapter(): Promise<Adapter>
  /** Empties every model and checks it is empty. */
  reset(adapter: Adapter): Promise<void>
  close(): Promise<void>
}

export function createHarness(options: AdapterConformanceOptions): Harness {
  let pending: Promise<Adapter> | undefined
  return {
    adapter() {
      pending ??= open(options)
      return pending
    },
    async reset(adapter) {
      await (options.reset ?? ((target: Adapter) => deleteEverything(target, suiteSchema(options))))(adapter)
      for (const model of Object.keys(suiteSchema(options))) {
        const left = await adapter.count({ model })
        if (left !== 0) fail(`reset left ${String(left)} row(s) in model "${model}"`)
      }
    },
    async close() {
      if (!pending) return
      const adapter = await pending.catch(() => undefined)
      await adapter?.close?.()
    },
  }
}

/** The schema the suite runs on: the options' one, else `conformanceSchema`. */
export function suiteSchema(options: AdapterConformanceOptions): Schema {
  return options.schema ?? conformanceSchema
}

async function open(options: AdapterConformanceOptions): Promise<Adapter> {
  const adapter = await options.createAdapter(suiteSchema(options))
  if (adapter.capabilities.migrations) {
    if (!adapter.migrate) fail('capabilities.migrations is true but the adapter has no migrate()')
    await adapter.migrate()
  }
  return adapter
}

/** The default reset: `deleteMany` on every model, rows that reference others first. */
async function deleteEverything(adapter: Adapter, schema: Schema): Promise<void> {
  for (const model of deletionOrder(schema)) {
    // Every id is a non-empty string, so this matches every row without relying on an empty `where`.
    await adapter.deleteMany({ model, where: { field: 'id', operator: 'ne', value: '' } })
  }
}

/** Models ordered so that a model comes before every model it references. */
export function deletionOrder(schema: Schema): string[] {
  const parentsFirst: string[] = []
  const seen = new Set<string>()
  const visit = (model: string): void => {
    if (seen.has(model)) return
    seen.add(model)
    for (const field of Object.values(schema[model]?.fields ?? {})) {
      if (field.references && field.references.model !== model) visit(field.references.model)
    }
    parentsFirst.push(model)
  }
  for (const model of Object.keys(schema)) visit(model)
  return parentsFirst.reverse()
}
