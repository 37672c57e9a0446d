/**
 * @module
 * POST {basePath}/polar/webhooks (the path is configurable,
 * docs/billing.md#the-endpoint): the billing platform's deliveries. Not a browser route: exempt
 * from the origin check and rate limits, since the signature is the
 * authentication and a limit would drop events. It reads the raw body (a
 * signature covers the bytes as sent, never a re-serialisation), at most
 * 1 MiB (413 beyond, enforced while reading).
 *
 * Answers: 403 with the verifier's message when the signature does not
 * verify (nothing is stored); 200 `{ received, status: 'applied' }` or
 * `'duplicate'`; 202 `{ received, status: 'ignored' | 'failed', message }`
 * for an event logged but not applied, so the platform stops retrying it;
 * 503 when the database could not take it for a temporary reason (nothing
 * is stored), so the platform retries it.
 */
import { AuthError, defineEndpoint } from '@gatehouse/core'
import { z } from 'zod'
import { BillingErrors } from '../errors.js'
import { receiveDelivery } from '../events/receive.js'
import type { ResolvedBillingOptions } from '../options.js'
import { verifyWebhook, webhookKeys, WebhookVerificationError } from '../webhooks/verify.js'

export const MAX_WEBHOOK_BYTES = 1024 * 1024

/**
 * @example
 * const response = await auth.handler(request) // POST /api/auth/polar/webhooks, signed by the platform
 */
export function webhookRoute(options: ResolvedBillingOptions) {
  // Most recently verifying key first: each delivery then costs one HMAC, whichever scheme the endpoint uses.
  let keys = webhookKeys(options.secrets)
  return defineEndpoint({
    method: 'POST',
    path: options.path,
    body: z.lazy(() => z.string()),
    metadata: { skipOriginCheck: true, skipRateLimit: true, rawBody: true, maxBodyBytes: MAX_WEBHOOK_BYTES },
    handler: async ({ body, headers, db, clock, logger }) => {
      const now = clock.now()
      let webhookId: string
      try {
        const verified = verifyWebhook({ body, headers, keys, now, toleranceSeconds: options.toleranceSeconds })
        webhookId = verified.webhookId
        if (keys[0] !== verified.key) keys = [verified.key, ...keys.filter((key) => key !== verified.key)]
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error
        logger.warn('billing webhook refused', { reason: error.message })
        throw new AuthError(BillingErrors.WEBHOOK_VERIFICATION_FAILED, { message: error.message, cause: error })
      }
      const result = await receiveDelivery({ db, logger, handlers: options.handlers, now }, { webhookId, body })
      if (result.status === 'retry') throw new AuthError(BillingErrors.WEBHOOK_TEMPORARILY_UNAVAILABLE)
      const reply = { received: true, status: result.status, ...(result.message === undefined ? {} : { message: result.message }) }
      if (result.status === 'applied' || result.status === 'duplicate') return reply
      return new Response(JSON.stringify(reply), { status: 202, headers: { 'content-type': 'application/json' } })
    },
  })
}
