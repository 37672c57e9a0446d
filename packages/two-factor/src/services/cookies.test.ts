import { manualClock, type EndpointContext } from '@gatehouse/core'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import { describe, expect, it } from 'vitest'
import { PENDING_COOKIE, readPendingCookie, setPendingCookie, type PendingSignIn } from './cookies.js'

/** A jar keeping signed values as they are: signing is core's, tested there; here only the payload matters. */
function jar() {
  const values = new Map<string, string>()
  const cookies = {
    setSigned: (name: string, value: string) => void values.set(name, value),
    getSigned: (name: string) => values.get(name) ?? null,
  }
  // Only the two methods this module calls; the rest of core's CookieJar is never reached.
  const ctx = { cookies, clock: manualClock(new Date('2026-03-01T10:00:00.000Z')) } as unknown as Pick<EndpointContext, 'cookies' | 'clock'>
  return { ctx, values }
}

const base: PendingSignIn = { userId: 'u1', rememberMe: true, trustVersion: 'tv', credentialVersion: 'cv', firstFactor: ['pwd'], sessionFields: {} }

function payload(values: Map<string, string>): Record<string, unknown> {
  return JSON.parse(Buffer.from(values.get(PENDING_COOKIE) as string, 'base64url').toString('utf8'))
}

function raw(values: Map<string, string>, extra: Record<string, unknown>): void {
  const value = { u: 'u1', r: true, v: 'tv', c: 'cv', e: Math.floor(Date.parse('2026-03-01T10:10:00.000Z') / 1000), ...extra }
  values.set(PENDING_COOKIE, encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(value))))
}

describe('the pending cookie', () => {
  it("a password sign-in's cookie names no first factor and no fields, and reads back as the password", () => {
    const { ctx, values } = jar()
    setPendingCookie(ctx, base, 600)
    expect(Object.keys(payload(values)).sort()).toEqual(['c', 'e', 'r', 'u', 'v'])
    expect(readPendingCookie(ctx)).toEqual(base)
  })

  it("another first factor's amr and session fields travel in it", () => {
    const { ctx, values } = jar()
    const sso: PendingSignIn = { ...base, firstFactor: ['fed'], sessionFields: { ssoProviderId: 'acme' } }
    setPendingCookie(ctx, sso, 600)
    expect(payload(values)).toMatchObject({ a: ['fed'], f: { ssoProviderId: 'acme' } })
    expect(readPendingCookie(ctx)).toEqual(sso)
  })

  it('a malformed first factor or session fields is no pending sign-in', () => {
    const malformed: Array<Record<string, unknown>> = [
      { a: 'fed' },
      { a: [] },
      { a: ['fed', 'hwk', 'swk', 'pin', 'sms'] },
      { a: ['FED'] },
      { a: [1] },
      { f: ['acme'] },
      { f: null },
      { f: { ssoProviderId: { nested: true } } },
      { f: { ssoProviderId: 'x'.repeat(257) } },
      { f: { a: 1, b: 2, c: 3, d: 4, e: 5 } },
      { f: { 'not a name': 'x' } },
    ]
    for (const extra of malformed) {
      const { ctx, values } = jar()
      raw(values, extra)
      expect(readPendingCookie(ctx), JSON.stringify(extra)).toBeNull()
    }
    const { ctx, values } = jar()
    raw(values, { a: ['fed'], f: { ssoProviderId: 'acme', n: 1, b: false, z: null } })
    expect(readPendingCookie(ctx)).toMatchObject({ firstFactor: ['fed'], sessionFields: { ssoProviderId: 'acme', n: 1, b: false, z: null } })
  })
})
