/**
 * RFC 6238 Appendix B: the SHA1 test vectors (8 digits, 30-second steps,
 * the 20-byte ASCII key "12345678901234567890"), through the same function
 * the routes use, and the window and replay-relevant step matching.
 */
import { describe, expect, it } from 'vitest'
import { matchTotp, timeStep, totpForStep, totpURI } from './totp.js'

const RFC_KEY = new TextEncoder().encode('12345678901234567890')

const VECTORS: ReadonlyArray<readonly [number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
]

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s the SHA1 8-digit code is %s', async (seconds, expected) => {
    const step = timeStep(new Date(seconds * 1000), 30)
    expect(await totpForStep(RFC_KEY, step, 8)).toBe(expected)
    expect(await matchTotp(RFC_KEY, expected, new Date(seconds * 1000), { digits: 8, period: 30, window: 1 })).toBe(step)
  })

  it('accepts one step either side and no further, and names the matched step', async () => {
    const now = new Date(1_111_111_111 * 1000)
    const current = timeStep(now, 30)
    const parameters = { digits: 6, period: 30, window: 1 }
    const code = (step: number) => totpForStep(RFC_KEY, step, 6)
    expect(await matchTotp(RFC_KEY, await code(current - 1), now, parameters)).toBe(current - 1)
    expect(await matchTotp(RFC_KEY, await code(current + 1), now, parameters)).toBe(current + 1)
    expect(await matchTotp(RFC_KEY, await code(current - 2), now, parameters)).toBeNull()
    expect(await matchTotp(RFC_KEY, await code(current + 2), now, parameters)).toBeNull()
  })

  it('refuses codes of the wrong length or with other characters', async () => {
    const now = new Date(59_000)
    const parameters = { digits: 8, period: 30, window: 1 }
    expect(await matchTotp(RFC_KEY, '9428708', now, parameters)).toBeNull()
    expect(await matchTotp(RFC_KEY, '94287082 ', now, parameters)).toBeNull()
    expect(await matchTotp(RFC_KEY, '9428708a', now, parameters)).toBeNull()
  })

  it('writes the otpauth URI with the base32 secret, issuer, digits and period', async () => {
    const uri = new URL(await totpURI(RFC_KEY, { issuer: 'Acme', account: 'ada@example.com', digits: 6, period: 30 }))
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.searchParams.get('secret')).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
    expect(uri.searchParams.get('issuer')).toBe('Acme')
    expect(uri.searchParams.get('digits')).toBe('6')
    expect(uri.searchParams.get('period')).toBe('30')
    expect(decodeURIComponent(uri.pathname)).toContain('Acme:ada@example.com')
  })
})
