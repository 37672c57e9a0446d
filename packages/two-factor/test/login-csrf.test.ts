/**
 * Login CSRF (docs/security.md#login-csrf): the second step of a sign-in
 * sets the session cookie, so a cross-site form post to it is refused
 * by the origin check whether or not it carries cookies.
 */
import { describe, expect, it } from 'vitest'
import { request } from '../../core/test/helpers.js'
import { appCode, enroll, passwordStep, twoFactorAuth } from './fixtures.js'

function crossSiteForm(path: string, fields: Record<string, string>, origin: string) {
  return request(`/api/auth${path}`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, 'sec-fetch-site': 'cross-site' },
  })
}

describe('POST /two-factor/verify-* from another site', () => {
  it.each(['/two-factor/verify-totp', '/two-factor/verify-otp', '/two-factor/verify-backup-code'])(
    '%s without cookies is refused with 403 and sets no cookie',
    async (path) => {
      const auth = twoFactorAuth()
      const enrolled = await enroll(auth)
      await passwordStep(auth, enrolled.email)
      const code = path.endsWith('backup-code') ? (enrolled.backupCodes[0] as string) : appCode(enrolled.secret, auth.clock.now())
      const response = await auth.handler(crossSiteForm(path, { code }, 'https://evil.example'))
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
      expect(response.headers.getSetCookie()).toEqual([])
    },
  )
})
