import { describe, expect, it } from 'vitest'
import { methodCookie } from './cookies.js'

describe('methodCookie', () => {
  it("copies the session cookie's scope, never its HttpOnly or lifetime", () => {
    const session = '__Host-gatehouse.session_token=abc.sig; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=None; Partitioned'
    expect(methodCookie('better-auth.last_used_login_method', 'passkey', 60, session)).toBe(
      'better-auth.last_used_login_method=passkey; Max-Age=60; Path=/; Secure; SameSite=None; Partitioned',
    )
  })

  it('keeps a Domain, and a browser-session cookie still gets its own Max-Age', () => {
    const session = '__Secure-gatehouse.session_token=abc.sig; Domain=example.com; Path=/; HttpOnly; Secure; SameSite=Lax'
    expect(methodCookie('m', 'email', 2592000, session)).toBe('m=email; Max-Age=2592000; Domain=example.com; Path=/; Secure; SameSite=Lax')
  })
})
