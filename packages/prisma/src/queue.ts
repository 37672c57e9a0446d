/**
 * @module
 * One-at-a-time access for SQLite. A SQLite database opened through a
 * driver adapter is one connection: a statement sent while an interactive
 * transaction is open would see its uncommitted rows, and commit or roll
 * back with it. The adapter runs its transactions and its other statements
 * through one queue, as core's Kysely adapter does on SQLite.
 */

/** Runs tasks one after the other, in call order. */
export interface Queue {
  run<R>(task: () => Promise<R>): Promise<R>
}

/**
 * @example
 * const queue = createQueue()
 * await queue.run(() => client.$transaction(work))
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

/** Runs every task at once: PostgreSQL and MySQL pools give each transaction a connection of its own. */
export const noQueue: Queue = { run: (task) => task() }
