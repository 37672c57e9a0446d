/**
 * The billing platform's side of a browser test: the signed
 * `subscription.active` webhook it sends the server (not the browser) once a
 * payment went through (docs/billing.md#secrets-and-verification), signed with the suite's
 * WEBHOOK_SECRET as Standard Webhooks prescribe.
 */
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { envelope, subscription } from '../../../packages/billing/test/fixtures/payloads.js'
import { WEBHOOK_SECRET } from './harness.js'

/** The id of the user signed in on `page`, read from the session endpoint. */
export async function signedInUserId(page: Page): Promise<string> {
  const { user } = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { id: string } }
  return user.id
}

/** Delivers webhook `id`: the subscription of the user with external id `userId` is active. Answers the server's response. */
export function deliverSubscriptionActive(serverUrl: string, userId: string, id: string): Promise<Response> {
  const body = JSON.stringify(envelope('subscription.active', subscription({ status: 'active', started_at: '2026-01-01T09:00:00.000000Z' }, { external_id: userId })))
  const at = new Date()
  return fetch(`${serverUrl}/api/auth/polar/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(WEBHOOK_SECRET).sign(id, at, body),
    },
    body,
  })
}
