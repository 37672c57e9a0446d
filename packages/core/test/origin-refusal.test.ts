/**
 * A refused origin says what to fix (docs/security.md#when-the-origin-is-refused):
 * outside production the 403 names the refused origin and the trusted ones beside
 * the fixed message; in production the body is the bare catalogue error. Every
 * mode logs one warning naming them, and nothing of the request's cookies.
 */
import { describe, expect, it } from 'vitest'
import { PASSWORD } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request, testAuth } from './helpers.js'

const TRUSTED = ['https://admin.example.com']

function setup(production: boolean) {
  const logs = captureLogs()
  const auth = testAuth({ production, logger: logs.logger, trustedOrigins: TRUSTED, emailAndPassword: { enabled: true }, rateLimit: { enabled: false } })
  const signIn = (headers: Record<string, string>) =>
    auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD }, headers }))
  return { logs, signIn }
}

describe('INVALID_ORIGIN', () => {
  it('outside production, the body names the refused origin and the trusted ones; the message stays "Invalid origin"', async () => {
    const { signIn } = setup(false)
    const response = await signIn({ origin: 'http://localhost:5174', cookie: 'gatehouse.session_token=secret-cookie-value' })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({
      code: 'INVALID_ORIGIN',
      message: 'Invalid origin',
      origin: 'http://localhost:5174',
      trustedOrigins: [BASE, ...TRUSTED],
    })
  })

  it('names the origin taken from Referer when no Origin is sent', async () => {
    const { signIn } = setup(false)
    const response = await signIn({ referer: 'http://127.0.0.1:3000/sign-in?next=/', cookie: 'a=b' })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN', origin: 'http://127.0.0.1:3000' })
  })

  it('in production, the body is the bare catalogue error', async () => {
    const { signIn } = setup(true)
    const response = await signIn({ origin: 'https://evil.example' })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
  })

  it.each([false, true])('logs one warning naming the refused and the trusted origins, without the cookie (production: %s)', async (production) => {
    const { logs, signIn } = setup(production)
    await signIn({ origin: 'http://localhost:5174', cookie: 'gatehouse.session_token=secret-cookie-value' })
    const refusals = logs.lines.filter((line) => line.includes('refused origin'))
    expect(refusals).toHaveLength(1)
    expect(refusals[0]).toMatch(/^warn refused origin http:\/\/localhost:5174: trusted are http:\/\/localhost:3000, https:\/\/admin\.example\.com /)
    expect(logs.leaked('secret-cookie-value')).toEqual([])
  })

  it('cuts a client-written origin of any length to 200 characters in the log and the body', async () => {
    const { logs, signIn } = setup(false)
    const origin = `https://${'a'.repeat(5000)}.example`
    const body = await (await signIn({ origin })).json()
    expect(body.origin).toHaveLength(200)
    expect(logs.lines.every((line) => !line.includes('a'.repeat(201)))).toBe(true)
  })
})
