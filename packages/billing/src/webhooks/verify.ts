/**
 * @module
 * Signature verification of incoming webhooks (Standard Webhooks: headers
 * webhook-id, webhook-timestamp, webhook-signature;
 * docs/billing.md#secrets-and-verification). The HMAC is the
 * `standardwebhooks` package's; this module adds what its `verify` cannot
 * be told: the time comes from the auth's clock
 * (tests move it) and the tolerance is configurable, and each secret is
 * tried under both of the platform's key schemes:
 *
 * - the older scheme (the signing secret is base64-encoded before use): the
 *   platform's SDK base64-encodes the whole secret for a verifier that
 *   decodes it again, so the HMAC key is the secret's own UTF-8 bytes;
 * - the Standard Webhooks scheme: the key is the base64 after `whsec_`.
 *
 * Every `v1` signature in the header is compared (key rotation sends
 * several); any one match is enough. Failures throw the package's
 * `WebhookVerificationError` with its messages.
 */
import { constantTimeEqual } from '@gatehouse/core'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

export { WebhookVerificationError }

/** A secret's verifiers, one per key scheme that can read it. */
export interface WebhookKey {
  readonly scheme: 'secret-bytes' | 'standard'
  readonly webhook: Webhook
}

/**
 * @example
 * const keys = webhookKeys(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])
 * keys.map((key) => key.scheme) // ['secret-bytes', 'standard']
 */
export function webhookKeys(secrets: readonly string[]): WebhookKey[] {
  const keys: WebhookKey[] = []
  for (const secret of secrets) {
    // The secret's UTF-8 bytes in base64, decoded again by the verifier, rather than the bytes
    // with `format: 'raw'`: that option tells bytes by `instanceof Uint8Array`, which is false for bytes
    // of another realm (TextEncoder's under a jsdom test environment), and then misreads them as text.
    keys.push({ scheme: 'secret-bytes', webhook: new Webhook(utf8Base64(secret)) })
    try {
      keys.push({ scheme: 'standard', webhook: new Webhook(secret) })
    } catch {
      // Not base64 after the prefix: only the older scheme can have signed with this secret.
    }
  }
  return keys
}

function utf8Base64(text: string): string {
  return btoa(Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(''))
}

export interface VerifyInput {
  /** The body exactly as received. */
  readonly body: string
  readonly headers: Headers
  /** Tried in order; any one verifying is enough. */
  readonly keys: readonly WebhookKey[]
  readonly now: Date
  readonly toleranceSeconds: number
}

/** What a verified delivery is known by. */
export interface VerifiedDelivery {
  readonly webhookId: string
  /** The attempt's signing time (webhook-timestamp), not the event's. */
  readonly signedAt: Date
  /** The key that verified it: an endpoint signs with one scheme, so callers try it first next time. */
  readonly key: WebhookKey
}

/**
 * Throws `WebhookVerificationError` unless one signature matches under one key.
 *
 * @example
 * const { webhookId } = verifyWebhook({ body, headers: request.headers, keys, now: clock.now(), toleranceSeconds: 300 })
 */
export function verifyWebhook(input: VerifyInput): VerifiedDelivery {
  const webhookId = input.headers.get('webhook-id')
  const timestampHeader = input.headers.get('webhook-timestamp')
  const signatureHeader = input.headers.get('webhook-signature')
  if (!webhookId || !timestampHeader || !signatureHeader) throw new WebhookVerificationError('Missing required headers')
  if (!/^\d{1,12}$/.test(timestampHeader)) throw new WebhookVerificationError('Invalid Signature Headers')
  const timestamp = Number(timestampHeader)
  const now = Math.floor(input.now.getTime() / 1000)
  if (now - timestamp > input.toleranceSeconds) throw new WebhookVerificationError('Message timestamp too old')
  if (timestamp - now > input.toleranceSeconds) throw new WebhookVerificationError('Message timestamp too new')

  const signedAt = new Date(timestamp * 1000)
  const presented = signatureHeader
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, signature]) => version === 'v1' && signature !== undefined)
    .map(([, signature]) => signature as string)
  for (const key of input.keys) {
    const expected = key.webhook.sign(webhookId, signedAt, input.body).slice('v1,'.length)
    // Every presented signature is compared, so the time taken does not say which one matched.
    let matched = false
    for (const signature of presented) if (constantTimeEqual(signature, expected)) matched = true
    if (matched) return { webhookId, signedAt, key }
  }
  throw new WebhookVerificationError('No matching signature found')
}
