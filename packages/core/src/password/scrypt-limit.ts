/**
 * @module
 * At most one key derivation per CPU core at a time. Each default-parameter
 * scrypt holds 32 MiB (128·N·r) for its whole run, so the number running at
 * once sets the server's peak memory under sign-ins and sign-ups, while
 * more than one per core adds no throughput: the cores are already busy and
 * the derivations only share them, each finishing later. The queue is first
 * come, first served, as libuv's own thread-pool queue is, so a wrong
 * password and an unknown email still wait alike (docs/passwords.md#same-cost-for-unknown-users).
 */

export interface ConcurrencyLimit {
  /** Runs `task` once fewer than the limit are running; tasks start in the order they came. */
  run<T>(task: () => Promise<T>): Promise<T>
}

/**
 * @example
 * const limit = concurrencyLimit(2)
 * const key = await limit.run(() => derive(password, salt))
 */
export function concurrencyLimit(limit: number): ConcurrencyLimit {
  const max = Math.max(1, Math.floor(limit))
  let running = 0
  const waiting: Array<() => void> = []

  const release = () => {
    const next = waiting.shift()
    // The slot passes straight to the next task: `running` stays the same.
    if (next) next()
    else running -= 1
  }

  return {
    async run(task) {
      if (running < max) running += 1
      else await new Promise<void>((resolve) => waiting.push(resolve))
      try {
        return await task()
      } finally {
        release()
      }
    },
  }
}
