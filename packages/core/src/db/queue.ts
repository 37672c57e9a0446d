/**
 * @module
 * One-at-a-time access to a single database connection, for adapter authors
 * (docs/adapters.md#writing-an-adapter). A SQLite database is one
 * connection: a statement sent while a transaction is open on it would see
 * the transaction's uncommitted rows, and commit or roll back with it. An
 * adapter over such a connection runs its transactions and its other
 * statements through one queue, as core's Kysely adapter does on SQLite and
 * the Drizzle and Prisma adapters do on theirs. Pools (PostgreSQL, MySQL)
 * give each transaction a connection of its own and need none: `noQueue`.
 */

/** Runs tasks one after the other, in call order. */
export interface Queue {
  run<R>(task: () => Promise<R>): Promise<R>
}

/**
 * @example
 * const queue = createQueue()
 * await queue.run(async () => { await begin(); try { await work() } finally { await end() } })
 */
export function createQueue(): Queue {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    run(task) {
      const result = tail.then(task)
      // The next task waits for this one to settle, whether it succeeded or not.
      tail = result.then(
        () => undefined,
        () => undefined,
      )
      return result
    },
  }
}

/** Runs every task at once: for a pool, where each transaction has a connection of its own. */
export const noQueue: Queue = { run: (task) => task() }
