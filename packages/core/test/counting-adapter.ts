/**
 * Wraps an adapter factory to record every operation it runs, so tests can
 * assert how many queries a route costs.
 */
import type { Adapter, AdapterFactory } from '../src/db/adapter.js'

export function countingAdapter(factory: AdapterFactory) {
  const calls: string[] = []
  const wrap = (adapter: Adapter): Adapter => ({
    id: adapter.id,
    capabilities: adapter.capabilities,
    schema: adapter.schema,
    create: (args) => (calls.push(`create:${args.model}`), adapter.create(args)),
    findOne: (args) => (calls.push(`findOne:${args.model}`), adapter.findOne(args)),
    findMany: (args) => (calls.push(`findMany:${args.model}`), adapter.findMany(args)),
    count: (args) => (calls.push(`count:${args.model}`), adapter.count(args)),
    update: (args) => (calls.push(`update:${args.model}`), adapter.update(args)),
    updateMany: (args) => (calls.push(`updateMany:${args.model}`), adapter.updateMany(args)),
    delete: (args) => (calls.push(`delete:${args.model}`), adapter.delete(args)),
    deleteMany: (args) => (calls.push(`deleteMany:${args.model}`), adapter.deleteMany(args)),
    consume: (args) => (calls.push(`consume:${args.model}`), adapter.consume(args)),
    lock: (args) => (calls.push(`lock:${args.model}`), adapter.lock(args)),
    transaction: (fn) => adapter.transaction((tx) => fn(wrap(tx))),
  })
  const counted: AdapterFactory = async (options) => wrap(await factory(options))
  return {
    factory: counted,
    calls,
    /** Calls recorded while `fn` runs. */
    async during(fn: () => Promise<unknown>): Promise<string[]> {
      const start = calls.length
      await fn()
      return calls.slice(start)
    },
  }
}
