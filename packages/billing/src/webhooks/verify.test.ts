import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { verifyWebhook, webhookKeys, WebhookVerificationError } from './verify.js'

const SECRET = `whsec_${Buffer.from('a-32-byte-key-for-the-test-suite').toString('base64')}`
const NOW = new Date('2026-03-01T12:00:00Z')
const BODY = '{"type":"order.paid","timestamp":"2026-03-01T11:59:59Z","data":{"id":"o1"}}'

/** The two ways the platform signs: the secret's bytes (base64-encoded for the signer), or the decoded whsec_ key. */
const signers = {
  'secret-bytes': (secret: string) => new Webhook(Buffer.from(secret).toString('base64')),
  standard: (secret: string) => new Webhook(secret),
}

function headers(signature: string, options: { id?: string; at?: Date } = {}): Headers {
  return new Headers({
    'webhook-id': options.id ?? 'msg_1',
    'webhook-timestamp': String(Math.floor((options.at ?? NOW).getTime() / 1000)),
    'webhook-signature': signature,
  })
}

function verify(signature: string, options: { id?: string; at?: Date; body?: string; tolerance?: number; secrets?: string[] } = {}) {
  return verifyWebhook({
    body: options.body ?? BODY,
    headers: headers(signature, options),
    keys: webhookKeys(options.secrets ?? [SECRET]),
    now: NOW,
    toleranceSeconds: options.tolerance ?? 300,
  })
}

function failure(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError)
    return (error as Error).message
  }
  throw new Error('verification passed')
}

describe('verifyWebhook', () => {
  for (const scheme of ['secret-bytes', 'standard'] as const) {
    it(`accepts a signature made under the ${scheme} scheme`, () => {
      const signature = signers[scheme](SECRET).sign('msg_1', NOW, BODY)
      expect(verify(signature)).toMatchObject({ webhookId: 'msg_1', signedAt: NOW, key: { scheme } })
    })
  }

  it('the two schemes give different signatures, so each one is really checked', () => {
    expect(signers['secret-bytes'](SECRET).sign('msg_1', NOW, BODY)).not.toBe(signers.standard(SECRET).sign('msg_1', NOW, BODY))
  })

  it('accepts when any one of several signatures matches (key rotation)', () => {
    const good = signers.standard(SECRET).sign('msg_1', NOW, BODY)
    const old = signers.standard(`whsec_${Buffer.from('an-older-key-that-was-rotated-out').toString('base64')}`).sign('msg_1', NOW, BODY)
    expect(verify(`${old} v2,ignored ${good}`).webhookId).toBe('msg_1')
    expect(failure(() => verify(`${old} v2,ignored`))).toBe('No matching signature found')
  })

  it('accepts a delivery signed with any configured secret (rotation on our side)', () => {
    const next = `whsec_${Buffer.from('the-next-secret-during-rotation!').toString('base64')}`
    const signature = signers.standard(next).sign('msg_1', NOW, BODY)
    expect(verify(signature, { secrets: [SECRET, next] }).webhookId).toBe('msg_1')
    expect(failure(() => verify(signature))).toBe('No matching signature found')
  })

  it('refuses a tampered body, a changed id and a re-serialised body', () => {
    const signature = signers.standard(SECRET).sign('msg_1', NOW, BODY)
    expect(failure(() => verify(signature, { body: BODY.replace('o1', 'o2') }))).toBe('No matching signature found')
    expect(failure(() => verify(signature, { id: 'msg_2' }))).toBe('No matching signature found')
    expect(failure(() => verify(signature, { body: JSON.stringify(JSON.parse(BODY), null, 2) }))).toBe('No matching signature found')
  })

  it('refuses stale and future timestamps beyond the tolerance, both ways, and honours a configured tolerance', () => {
    const sign = (at: Date) => signers.standard(SECRET).sign('msg_1', at, BODY)
    const old = new Date(NOW.getTime() - 301_000)
    const future = new Date(NOW.getTime() + 301_000)
    expect(failure(() => verify(sign(old), { at: old }))).toBe('Message timestamp too old')
    expect(failure(() => verify(sign(future), { at: future }))).toBe('Message timestamp too new')
    const edge = new Date(NOW.getTime() - 300_000)
    expect(verify(sign(edge), { at: edge }).webhookId).toBe('msg_1')
    expect(verify(sign(old), { at: old, tolerance: 600 }).webhookId).toBe('msg_1')
    const recent = new Date(NOW.getTime() - 61_000)
    expect(failure(() => verify(sign(recent), { at: recent, tolerance: 60 }))).toBe('Message timestamp too old')
  })

  it('refuses missing headers and a malformed timestamp', () => {
    const keys = webhookKeys([SECRET])
    const without = (name: string) => {
      const all = headers(signers.standard(SECRET).sign('msg_1', NOW, BODY))
      all.delete(name)
      return () => verifyWebhook({ body: BODY, headers: all, keys, now: NOW, toleranceSeconds: 300 })
    }
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(failure(without(name))).toBe('Missing required headers')
    const malformed = new Headers({ 'webhook-id': 'msg_1', 'webhook-timestamp': '17e8', 'webhook-signature': 'v1,abc' })
    expect(failure(() => verifyWebhook({ body: BODY, headers: malformed, keys, now: NOW, toleranceSeconds: 300 }))).toBe('Invalid Signature Headers')
  })

  it('a secret that is not base64 after whsec_ still verifies under the older scheme', () => {
    const odd = 'whsec_not*base64!'
    expect(webhookKeys([odd]).map((key) => key.scheme)).toEqual(['secret-bytes'])
    expect(verify(signers['secret-bytes'](odd).sign('msg_1', NOW, BODY), { secrets: [odd] }).webhookId).toBe('msg_1')
  })
})
