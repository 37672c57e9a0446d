/**
 * Race tests hold a transaction at an exact point: right after one of its
 * inserts returned, before it commits. The competing request started there
 * must either wait for the transaction's locks or see its commit, which is
 * the interleaving a lock or a re-check is there for.
 */
import type { Adapter, AdapterFactory, Row } from '../src/db/adapter.js'

/**
 * The real adapter, with `run` awaited inside a transaction right after an
 * insert that `matches` has returned.
 *
 * @example
 * const factory = afterInsertInTransaction(backend.factory, ({ model }) => model === 'session', () => kill())
 */
export function afterInsertInTransaction(
  factory: AdapterFactory,
  matches: (args: { model: string; data: Row }) => boolean,
  run: () => Promise<void>,
): AdapterFactory {
  return async (options) => {
    const adapter = await factory(options)
    const inTransaction = (tx: Adapter): Adapter => ({
      ...tx,
      create: async <T extends Row = Row>(args: { model: string; data: Row }) => {
        const row = await tx.create<T>(args)
        if (matches(args)) await run()
        return row
      },
    })
    return { ...adapter, transaction: (fn) => adapter.transaction((tx) => fn(inTransaction(tx))) }
  }
}
