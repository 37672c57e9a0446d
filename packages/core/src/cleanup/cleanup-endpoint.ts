/**
 * @module
 * `auth.api.cleanup()` (docs/core.md#cleanup): server only, never routed.
 * Applications schedule it (a timer, cron, `gatehouse cleanup`) so expired
 * sessions, verification values, OAuth states, rate-limit counters and plugin
 * rows do not pile up. Safe to run from several processes at once: each
 * batch deletes only rows that are still expired, and a row deleted by
 * another runner is simply not counted twice.
 */
import { z } from 'zod'
import { defineEndpoint } from '../endpoint/define-endpoint.js'
import { runCleanup } from './run-cleanup.js'

/**
 * @example
 * const { deleted } = await auth.api.cleanup()
 * // { deleted: { session: 120, verification: 4, rateLimit: 310 } }
 */
export const cleanup = defineEndpoint({
  method: 'POST',
  path: '/cleanup',
  serverOnly: true,
  body: z.lazy(() => z.object({ batchSize: z.number().int().min(1).max(10_000).optional() }).optional()),
  handler: async (ctx) => runCleanup(ctx.auth, { batchSize: ctx.body?.batchSize }),
})
