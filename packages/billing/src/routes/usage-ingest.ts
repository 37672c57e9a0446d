/**
 * @module
 * POST /usage/ingest (docs/billing.md#usage-events): one usage event for
 * the signed-in user's customer, for the platform's meters. Events from
 * concurrent requests are batched into one call (outbound/usage-batcher.ts);
 * the answer comes once the platform took the batch. The event's external
 * id, the platform's deduplication key, is the caller's `idempotencyKey`
 * (sent again with a retried request, the event counts once) or a random
 * one, answered so a retry can reuse it; it is prefixed with the user id so
 * one user's keys cannot collide with another's.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { metadataSchema } from './checkout.js'

const body = z.lazy(() =>
  z.object({
    event: z.string().min(1).max(100),
    metadata: metadataSchema.optional(),
    idempotencyKey: z.string().min(16).max(100).regex(/^[\w-]+$/).optional(),
  }),
)

/**
 * @example
 * await auth.api.ingestUsage({ headers, body: { event: 'api_call', metadata: { tokens: 120 } } })
 */
export function usageIngestRoute(outbound: OutboundRuntime) {
  return defineEndpoint({
    method: 'POST',
    path: '/usage/ingest',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, auth, random, clock, session }) => {
      const batcher = outbound.usage(auth)
      // 22 base62 characters: about 131 bits from the CSPRNG.
      const idempotencyKey = body.idempotencyKey ?? random.string(22)
      await batcher.ingest({
        name: body.event,
        externalCustomerId: session.user.id,
        externalId: `${session.user.id}:${idempotencyKey}`,
        timestamp: clock.now(),
        metadata: body.metadata ?? {},
      })
      return { ingested: true as const, idempotencyKey }
    },
  })
}
