import { describe, expect, it } from 'vitest'
import { decodeCachePayload, encodeCachePayload, RECENT_PAYLOADS, type CachePayload } from './cache-payload.js'
import type { Session, User } from './types.js'

const AT = new Date('2026-01-02T03:04:05.678Z')

function payload(name: string, extra: Record<string, unknown> = {}): CachePayload {
  const session: Session = { id: 's1', userId: 'u1', token: 'hash-1', expiresAt: AT, createdAt: AT, updatedAt: AT, ipAddress: null, userAgent: null }
  const user: User = { id: 'u1', name, email: 'a@example.com', emailVerified: false, image: null, createdAt: AT, updatedAt: AT, ...extra }
  return { session, user, expiresAt: 1_800_000_000_000 }
}

/** What JSON makes of a payload: the shape decoding must give back. */
const asJson = (value: CachePayload): unknown => JSON.parse(JSON.stringify(value))

describe('cache payload', () => {
  it('round-trips through encode and decode, and refuses what is not a payload', () => {
    const text = encodeCachePayload(payload('Ada'))
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCachePayload(text, 'round-trip')).toEqual(asJson(payload('Ada')))
    expect(decodeCachePayload('not base64!', 'bad')).toBeNull()
    expect(decodeCachePayload(Buffer.from('{"session":{}}').toString('base64url'), 'bad')).toBeNull()
    expect(decodeCachePayload(Buffer.from('[1,2]').toString('base64url'), 'bad')).toBeNull()
    expect(decodeCachePayload(Buffer.from('{"session":1,"user":{},"expiresAt":1}').toString('base64url'), 'bad')).toBeNull()
  })

  it('reuses the decoded payload only for the very same text, and never serves a session an older payload', () => {
    const first = encodeCachePayload(payload('Ada'))
    const renamed = encodeCachePayload(payload('Grace'))
    const decoded = decodeCachePayload(first, 'slot-1')
    expect(decodeCachePayload(first, 'slot-1')).toBe(decoded)
    expect(decodeCachePayload(renamed, 'slot-1')?.user.name).toBe('Grace')
    expect(decodeCachePayload(first, 'slot-1')?.user.name).toBe('Ada')
    // Another session's slot with the same text decodes on its own.
    expect(decodeCachePayload(first, 'slot-2')).toEqual(decoded)
  })

  it('freezes what it remembers, so no caller can change what the next one reads', () => {
    const text = encodeCachePayload(payload('Ada'))
    const decoded = decodeCachePayload(text, 'frozen')
    expect(Object.isFrozen(decoded)).toBe(true)
    expect(Object.isFrozen(decoded?.session)).toBe(true)
    expect(Object.isFrozen(decoded?.user)).toBe(true)
  })

  it('does not remember payloads holding nested objects, which a shallow copy would share', () => {
    const text = encodeCachePayload(payload('Ada', { preferences: { theme: 'dark' } }))
    const one = decodeCachePayload(text, 'nested')
    const two = decodeCachePayload(text, 'nested')
    expect(one).toEqual(two)
    expect(one).not.toBe(two)
    expect(Object.isFrozen(one?.user)).toBe(false)
  })

  it('keeps a bounded number of sessions', () => {
    const text = encodeCachePayload(payload('Ada'))
    const kept = decodeCachePayload(text, 'bounded-0')
    for (let i = 1; i <= RECENT_PAYLOADS; i++) decodeCachePayload(text, `bounded-${String(i)}`)
    // The oldest slot was dropped: the same text decodes again into a new object.
    expect(decodeCachePayload(text, 'bounded-0')).not.toBe(kept)
    expect(decodeCachePayload(text, 'bounded-0')).toEqual(kept)
  })
})
