/**
 * @module
 * POST /usage/ingest (docs/billing.md#usage-events): one usage event for
 * the signed-in user's customer, for the platform's meters. Events from
 * concurrent requests are batched into one call (outbound/usage-batcher.ts);
 * the answer comes once the platform took the event. The event's external
 * id, the platform's deduplication key, is the caller's `idempotencyKey`
 * (sent again with a retried request, the event counts once) or a random
 * one, answered so a retry can reuse it; it is prefixed with the user id so
 * one user's keys cannot collide with another's.
 *
 * A usage event is a bill, so a request may report only what the
 * application allows (docs/billing.md#security): without `usage.events` the
 * route is server-only (`auth.api.ingestUsage`; a request is 404, as for a
 * path that does not exist); with it, only the listed events, with
 * metadata their rule accepts and numbers finite and within its bounds
 * (at least 0 by default: a negative quantity would credit the customer),
 * at most `usage.rateLimit` requests per window and user. The server's own
 * calls are trusted with any event name, but a listed event meets its rule
 * there too.
 */
import { AuthError, defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { BillingErrors } from '../errors.js'
import type { ResolvedOutbound } from '../outbound/options.js'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { checkUsageEvent } from '../outbound/usage-events.js'
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
export function usageIngestRoute(settings: ResolvedOutbound, outbound: OutboundRuntime) {
  const catalogue = settings.usageEvents
  return defineEndpoint({
    method: 'POST',
    path: '/usage/ingest',
    body,
    use: [sessionMiddleware],
    // No catalogue: only the application's server reports usage, and no route exists.
    serverOnly: catalogue === null,
    handler: async ({ body, auth, random, clock, session, isServerCall }) => {
      const batcher = outbound.usage(auth)
      const userId = session.user.id
      // Every request counts, refused ones too: the budget is per user, whatever the address.
      if (!isServerCall) await outbound.spendUsageBudget(auth, userId)
      const rule = catalogue?.get(body.event)
      if (!rule && !isServerCall) throw new AuthError(BillingErrors.UNKNOWN_USAGE_EVENT)
      const metadata = rule ? await checkUsageEvent(rule, body.metadata ?? {}, { userId, event: body.event }) : (body.metadata ?? {})
      if (metadata === null) throw new AuthError(BillingErrors.INVALID_USAGE_EVENT)
      // 22 base62 characters: about 131 bits from the CSPRNG.
      const idempotencyKey = body.idempotencyKey ?? random.string(22)
      await batcher.ingest({
        name: body.event,
        externalCustomerId: userId,
        externalId: `${userId}:${idempotencyKey}`,
        timestamp: clock.now(),
        metadata,
      })
      return { ingested: true as const, idempotencyKey }
    },
  })
}
