import { describe, expect, it } from 'vitest'
import type { Session, User } from '../types/rows.js'
import type { CachePayload } from '../types/services.js'
import { createCachePayloadMemo, decodeCachePayload, encodeCachePayload, RECENT_PAYLOADS } from './cache-payload.js'

const AT = new Date('2026-01-02T03:04:05.678Z')

function payload(name: string, extra: Record<string, unknown> = {}): CachePayload {
  const session: Session = { id: 's1', userId: 'u1', token: 'hash-1', expiresAt: AT, createdAt: AT, updatedAt: AT, ipAddress: null, userAgent: null }
  const user: User = { id: 'u1', name, email: 'a@example.com', emailVerified: false, image: null, createdAt: AT, updatedAt: AT, ...extra }
  return { session, user, expiresAt: 1_800_000_000_000 }
}

/** What JSON makes of a payload: the shape decoding must give back. */
const asJson = (value: CachePayload): unknown => JSON.parse(JSON.stringify(value))

/** A stand-in signature scheme: `text.sig-<text length>`; the memo only needs `verify` to accept or refuse. */
const sign = (text: string) => `${text}.sig-${text.length}`
function counting() {
  const calls: string[] = []
  const verify = (signed: string): string | null => {
    calls.push(signed)
    const dot = signed.lastIndexOf('.')
    const text = signed.slice(0, dot)
    return signed.slice(dot + 1) === `sig-${text.length}` ? text : null
  }
  return { calls, verify }
}

describe('cache payload', () => {
  it('round-trips through encode and decode, and refuses what is not a payload', () => {
    const text = encodeCachePayload(payload('Ada'))
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCachePayload(text)).toEqual(asJson(payload('Ada')))
    expect(decodeCachePayload('not base64!')).toBeNull()
    expect(decodeCachePayload(Buffer.from('{"session":{}}').toString('base64url'))).toBeNull()
    expect(decodeCachePayload(Buffer.from('[1,2]').toString('base64url'))).toBeNull()
    expect(decodeCachePayload(Buffer.from('{"session":1,"user":{},"expiresAt":1}').toString('base64url'))).toBeNull()
  })

  it('verifies a text once, and again for any other text, however small the change', () => {
    const memo = createCachePayloadMemo()
    const { calls, verify } = counting()
    const first = sign(encodeCachePayload(payload('Ada')))
    const decoded = memo.read(first, 'slot-1', verify)
    expect(decoded).toEqual(asJson(payload('Ada')))
    expect(memo.read(first, 'slot-1', verify)).toBe(decoded)
    expect(calls).toHaveLength(1)
    // A forged signature on the remembered value is verified, and refused.
    expect(memo.read(`${first}x`, 'slot-1', verify)).toBeNull()
    expect(calls).toHaveLength(2)
    const renamed = sign(encodeCachePayload(payload('Grace')))
    expect(memo.read(renamed, 'slot-1', verify)?.user.name).toBe('Grace')
    expect(memo.read(first, 'slot-1', verify)?.user.name).toBe('Ada')
    expect(calls).toHaveLength(4)
    // Another session's slot verifies on its own.
    expect(memo.read(first, 'slot-2', verify)).toEqual(decoded)
    expect(calls).toHaveLength(5)
  })

  it('is one per auth instance: a text verified by one memo is verified again by another', () => {
    const text = sign(encodeCachePayload(payload('Ada')))
    const one = counting()
    createCachePayloadMemo().read(text, 'slot', one.verify)
    const other = { calls: [] as string[], verify: (signed: string) => (other.calls.push(signed), null) }
    expect(createCachePayloadMemo().read(text, 'slot', other.verify)).toBeNull()
    expect(other.calls).toEqual([text])
  })

  it('freezes what it remembers, so no caller can change what the next one reads', () => {
    const decoded = createCachePayloadMemo().read(sign(encodeCachePayload(payload('Ada'))), 'frozen', counting().verify)
    expect(Object.isFrozen(decoded)).toBe(true)
    expect(Object.isFrozen(decoded?.session)).toBe(true)
    expect(Object.isFrozen(decoded?.user)).toBe(true)
  })

  it('does not remember payloads holding nested objects, which a shallow copy would share', () => {
    const memo = createCachePayloadMemo()
    const { calls, verify } = counting()
    const text = sign(encodeCachePayload(payload('Ada', { preferences: { theme: 'dark' } })))
    const one = memo.read(text, 'nested', verify)
    const two = memo.read(text, 'nested', verify)
    expect(one).toEqual(two)
    expect(one).not.toBe(two)
    expect(calls).toHaveLength(2)
    expect(Object.isFrozen(one?.user)).toBe(false)
  })

  it('carries the custom get-session fields, remembering them only when flat', () => {
    const flat = { ...payload('Ada'), extra: { plan: 'pro', seats: 3 } }
    expect(decodeCachePayload(encodeCachePayload(flat))).toEqual(asJson(flat))
    const memo = createCachePayloadMemo()
    const { calls, verify } = counting()
    const remembered = memo.read(sign(encodeCachePayload(flat)), 'extra-flat', verify)
    expect(memo.read(sign(encodeCachePayload(flat)), 'extra-flat', verify)).toBe(remembered)
    expect(Object.isFrozen(remembered?.extra)).toBe(true)
    const nested = sign(encodeCachePayload({ ...payload('Ada'), extra: { roles: ['admin'] } }))
    expect(memo.read(nested, 'extra-nested', verify)).not.toBe(memo.read(nested, 'extra-nested', verify))
    expect(calls).toHaveLength(3)
    // An array is not a set of fields.
    const listed = Buffer.from(JSON.stringify({ ...asJson(payload('Ada')) as object, extra: [1] })).toString('base64url')
    expect(decodeCachePayload(listed)).not.toHaveProperty('extra')
  })

  it('keeps a bounded number of sessions', () => {
    const memo = createCachePayloadMemo()
    const { calls, verify } = counting()
    const text = sign(encodeCachePayload(payload('Ada')))
    const kept = memo.read(text, 'bounded-0', verify)
    for (let i = 1; i <= RECENT_PAYLOADS; i++) memo.read(text, `bounded-${String(i)}`, verify)
    // The oldest slot was dropped: the same text is verified and decoded again.
    const again = memo.read(text, 'bounded-0', verify)
    expect(again).not.toBe(kept)
    expect(again).toEqual(kept)
    expect(calls).toHaveLength(RECENT_PAYLOADS + 2)
  })
})
