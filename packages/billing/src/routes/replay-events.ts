/**
 * @module
 * `auth.api.replayBillingEvents` (server only): applies logged events that
 * were not applied — failed ones and those left `pending` past the grace
 * period (`webhooks.pendingGraceSeconds`) by default, ignored ones when asked —
 * after an upgrade taught this version their type or schema, after a
 * failing handler was fixed, or after the process died before the handlers
 * ran. Oldest first, at most `limit` (default 100).
 */
import { defineEndpoint } from '@gatehouse/core'
import { z } from 'zod'
import { replayEvents } from '../events/replay.js'
import type { ResolvedBillingOptions } from '../options.js'

const body = z.lazy(() =>
  z.object({
    ids: z.array(z.string().min(1)).min(1).optional(),
    statuses: z.array(z.enum(['failed', 'ignored', 'pending'])).min(1).default(['failed', 'pending']),
    limit: z.number().int().min(1).max(1000).default(100),
  }),
)

/**
 * @example
 * const { events } = await auth.api.replayBillingEvents({ body: { statuses: ['failed', 'ignored'] } })
 */
export function replayEventsCall(options: ResolvedBillingOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/billing/replay-events',
    serverOnly: true,
    body,
    handler: async ({ body, db, clock, logger }) => {
      const now = clock.now()
      const pendingBefore = new Date(now.getTime() - options.pendingGraceSeconds * 1000)
      const events = await replayEvents(
        { db, logger, handlers: options.handlers, now },
        { statuses: body.statuses, pendingBefore, limit: body.limit, ...(body.ids ? { ids: body.ids } : {}) },
      )
      return { events }
    },
  })
}
