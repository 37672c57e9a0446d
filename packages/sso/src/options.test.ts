import { describe, expect, it } from 'vitest'
import { DEFAULT_SAML_CLOCK_SKEW_MS, MAX_SAML_CLOCK_SKEW_MS, resolveOptions } from './options.js'

describe('resolveOptions', () => {
  it('keeps the SAML clock skew within five minutes', () => {
    expect(resolveOptions({}).saml.clockSkewMs).toBe(DEFAULT_SAML_CLOCK_SKEW_MS)
    expect(resolveOptions({ saml: { clockSkewMs: MAX_SAML_CLOCK_SKEW_MS } }).saml.clockSkewMs).toBe(300_000)
    expect(() => resolveOptions({ saml: { clockSkewMs: MAX_SAML_CLOCK_SKEW_MS + 1 } })).toThrow(/between 0 and 300000/)
    expect(() => resolveOptions({ saml: { clockSkewMs: -1 } })).toThrow(/between 0 and 300000/)
  })

  it('requires a verified domain before a provider signs anyone in, unless turned off', () => {
    expect(resolveOptions({}).domainVerification.required).toBe(true)
    expect(resolveOptions({ domainVerification: { required: false } }).domainVerification.required).toBe(false)
  })

  it('twoFactorPage: none by default; a path on this site, never another site', () => {
    expect(resolveOptions({}).twoFactorPage).toBeNull()
    expect(resolveOptions({ twoFactorPage: '/two-factor' }).twoFactorPage).toBe('/two-factor')
    expect(resolveOptions({ twoFactorPage: '/sign-in?step=code' }).twoFactorPage).toBe('/sign-in?step=code')
    for (const page of ['two-factor', '//evil.example/two-factor', '/\\evil.example', 'https://evil.example/two-factor', '/two factor', '']) {
      expect(() => resolveOptions({ twoFactorPage: page }), page).toThrow(/twoFactorPage must be a path on this site/)
    }
  })
})
