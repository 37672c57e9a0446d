/**
 * @module
 * `auth.api.replayBillingEvents` (server only): applies logged events that
 * were not applied — failed ones by default, ignored ones when asked —
 * after an upgrade taught this version their type or schema, or after a
 * failing handler was fixed. Oldest first, at most `limit` (default 100).
 */
import { defineEndpoint } from '@gatehouse/core'
import { z } from 'zod'
import { replayEvents } from '../events/replay.js'
import type { ResolvedBillingOptions } from '../options.js'

const body = z.object({
  ids: z.array(z.string().min(1)).min(1).optional(),
  statuses: z.array(z.enum(['failed', 'ignored'])).min(1).default(['failed']),
  limit: z.number().int().min(1).max(1000).default(100),
})

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
      const events = await replayEvents(
        { db, logger, handlers: options.handlers, now: clock.now() },
        { statuses: body.statuses, limit: body.limit, ...(body.ids ? { ids: body.ids } : {}) },
      )
      return { events }
    },
  })
}
