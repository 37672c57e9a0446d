/**
 * @module
 * One-at-a-time access to a SQLite connection. better-sqlite3 has a single
 * connection and drizzle's transactions on it must be synchronous, so the
 * adapter opens its own (`BEGIN` … `COMMIT`) and keeps every other statement
 * of the adapter waiting while one is open: otherwise a read outside the
 * transaction would see its uncommitted rows, and a concurrent write would
 * commit or roll back with it. Kysely's SQLite dialect does the same.
 */

/** Runs tasks one after the other, in call order. */
export interface Queue {
  run<R>(task: () => Promise<R>): Promise<R>
}

/**
 * @example
 * const queue = createQueue()
 * await queue.run(async () => { await begin(); try { ... } finally { await end() } })
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

/** A queue that runs every task at once: PostgreSQL and MySQL pools serve each transaction on its own connection. */
export const noQueue: Queue = { run: (task) => task() }
