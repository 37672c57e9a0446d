/**
 * @module
 * GET /ok (docs/core.md#pages): a liveness answer for load balancers and test harnesses.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'

export const ok = defineEndpoint({
  method: 'GET',
  path: '/ok',
  metadata: { skipRateLimit: true },
  handler: () => ({ ok: true as const }),
})
