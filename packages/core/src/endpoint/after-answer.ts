/**
 * @module
 * Work that runs after the request has been answered (docs/plugins.md#work-after-the-answer).
 * A route that mails a known address and not an unknown one (a magic link
 * with sign-up off, a reset code) must not wait for the mail callback: its
 * latency, or its failure answered 500, would tell which addresses have
 * accounts. So both schedule
 * their work here and answer at once; the work starts on a later turn of the
 * event loop, after the answer has been handed back, and its failures are
 * logged, never answered. `idle()` resolves once everything scheduled so far
 * has finished (tests, graceful shutdown).
 */
import type { Logger } from '../logging/logger.js'

export interface AfterAnswer {
  /** Runs `task` once the current request has been answered; a failure is logged with `label`. */
  schedule(logger: Logger, task: () => Promise<void>, label?: string): void
  /** Resolves once the work scheduled so far has finished. */
  idle(): Promise<void>
}

/**
 * @example
 * const later = createAfterAnswer()
 * later.schedule(ctx.logger, async () => { if (user) await deliverMail(ctx, 'magic-link', send, mail) }, 'magic link')
 */
export function createAfterAnswer(): AfterAnswer {
  const running = new Set<Promise<void>>()
  return {
    schedule(logger, task, label = 'after-answer') {
      // A timer, not a microtask: microtasks would run before the endpoint layer has built the answer.
      const work: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
        .then(task)
        .catch((error: unknown) => logger.error(`${label} background task failed`, { error: error instanceof Error ? error.name : typeof error }))
        .finally(() => running.delete(work))
      running.add(work)
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
  }
}
