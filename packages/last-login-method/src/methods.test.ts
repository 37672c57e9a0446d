import { describe, expect, it } from 'vitest'
import { defaultLoginMethod, isLoginMethod, isSecondFactorStep, resolveLoginMethod } from './methods.js'
import { resolveOptions } from './options.js'

function call(path: string, params: Record<string, string> = {}, body: unknown = {}) {
  return { path, params, body, method: 'POST' as const, query: {}, headers: new Headers() }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} }

describe('defaultLoginMethod', () => {
  it('names each sign-in route', () => {
    const cases: [string, Record<string, string>, unknown, string | null][] = [
      ['/sign-in/email', {}, {}, 'email'],
      ['/sign-up/email', {}, {}, 'email'],
      ['/sign-in/username', {}, {}, 'username'],
      ['/sign-in/email-otp', {}, {}, 'email-otp'],
      ['/sign-in/phone-number', {}, {}, 'phone-number'],
      ['/phone-number/verify', {}, {}, 'phone-number'],
      ['/magic-link/verify', {}, {}, 'magic-link'],
      ['/passkey/verify-authentication', {}, {}, 'passkey'],
      ['/sign-in/anonymous', {}, {}, 'anonymous'],
      ['/siwe/verify', {}, {}, 'siwe'],
      ['/callback/:id', { id: 'github' }, {}, 'github'],
      ['/oauth2/callback/:providerId', { providerId: 'acme' }, {}, 'acme'],
      ['/sign-in/social', {}, { provider: 'google', idToken: { token: 'x' } }, 'google'],
      ['/sso/callback/:providerId', { providerId: 'okta' }, {}, 'sso'],
      ['/sso/saml2/sp/acs/:providerId', { providerId: 'okta' }, {}, 'sso'],
      ['/sso/saml2/sp/acs/:providerId/complete', { providerId: 'okta' }, {}, 'sso'],
      // Routes that sign nobody in of their own accord, or only complete another's sign-in.
      ['/get-session', {}, {}, null],
      ['/sign-out', {}, {}, null],
      ['/verify-email', {}, {}, null],
      ['/two-factor/verify-totp', {}, {}, null],
      ['/passkey/verify-registration', {}, {}, null],
      ['/admin/impersonate-user', {}, {}, null],
    ]
    for (const [path, params, body, method] of cases) expect(defaultLoginMethod(call(path, params, body)), path).toBe(method)
  })

  it('takes a provider only from the route parameter, not from a path that merely looks like one', () => {
    expect(defaultLoginMethod(call('/callback/github', { id: 'gitlab' }))).toBeNull()
  })
})

describe('isLoginMethod', () => {
  it('accepts short tokens only', () => {
    for (const value of ['email', 'magic-link', 'microsoft_entra', 'x'.repeat(64), '0']) expect(isLoginMethod(value), value).toBe(true)
    for (const value of ['', 'Email', 'a b', 'a.b', '<b>', 'ada@example.com', 'x'.repeat(65), 'é', null, 42]) expect(isLoginMethod(value), String(value)).toBe(false)
  })
})

describe('isSecondFactorStep', () => {
  it('is the two-factor verify routes', () => {
    expect(['/two-factor/verify-totp', '/two-factor/verify-otp', '/two-factor/verify-backup-code'].every(isSecondFactorStep)).toBe(true)
    expect(isSecondFactorStep('/two-factor/enable')).toBe(false)
  })
})

describe('resolveLoginMethod', () => {
  it("asks the application's resolver first, then the table; a provider id that is no token is not stored", async () => {
    const custom = resolveOptions({ customResolveMethod: (ctx) => (ctx.path === '/sign-in/email' ? 'corporate' : null) })
    expect(await resolveLoginMethod(custom, call('/sign-in/email'), silent)).toBe('corporate')
    expect(await resolveLoginMethod(custom, call('/sign-in/username'), silent)).toBe('username')
    const plain = resolveOptions({})
    expect(await resolveLoginMethod(plain, call('/callback/:id', { id: 'My.Provider' }), silent)).toBeNull()
  })

  it('accepts an async resolver', async () => {
    const options = resolveOptions({ customResolveMethod: async () => 'later' })
    expect(await resolveLoginMethod(options, call('/anything'), silent)).toBe('later')
  })
})
