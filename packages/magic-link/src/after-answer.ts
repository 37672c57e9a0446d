/**
 * @module
 * Work that runs after the request has been answered (docs/magic-link.md#security).
 * With sign-up off, a known address gets a mail and an unknown one none; if
 * the answer waited for the mail callback, its latency (or its failure,
 * answered 500) would tell which addresses have accounts. So both schedule
 * their work here and answer at once; the work starts on a later turn of the
 * event loop, after the answer has been handed back, and its failures are
 * logged, never answered. `idle()` resolves once everything scheduled so far
 * has finished (tests, graceful shutdown).
 */
import type { Logger } from '@gatehouse/core'

export interface AfterAnswer {
  /** Runs `task` once the current request has been answered. */
  schedule(logger: Logger, task: () => Promise<void>): void
  /** Resolves once the work scheduled so far has finished. */
  idle(): Promise<void>
}

/**
 * @example
 * const later = createAfterAnswer()
 * later.schedule(ctx.logger, async () => { if (user) await deliverMail(ctx, 'magic-link', send, mail) })
 */
export function createAfterAnswer(): AfterAnswer {
  const running = new Set<Promise<void>>()
  return {
    schedule(logger, task) {
      // A timer, not a microtask: microtasks would run before the endpoint layer has built the answer.
      const work: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
        .then(task)
        .catch((error: unknown) => logger.error('magic link background task failed', { error: error instanceof Error ? error.name : typeof error }))
        .finally(() => running.delete(work))
      running.add(work)
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
  }
}
