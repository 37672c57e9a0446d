/**
 * @module
 * A first-come, first-served async lock. The in-memory adapter holds it for
 * the whole of a transaction and for each write outside one, so a write can
 * never land between a transaction's snapshot and its commit (which would be
 * silently overwritten) and two transactions never interleave.
 */

export class Mutex {
  private tail: Promise<void> = Promise.resolve()

  /** Runs `fn` once every earlier caller has finished; its result or error is passed through. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(fn)
    this.tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
