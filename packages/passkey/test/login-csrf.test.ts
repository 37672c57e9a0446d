/**
 * Login CSRF (docs/security.md#login-csrf): the passkey sign-in sets the
 * session cookie, so a cross-site form post to it is refused by the origin
 * check whether or not it carries cookies.
 */
import { describe, expect, it } from 'vitest'
import { request } from '../../core/test/helpers.js'
import { authenticatorFor, call, newUser, passkeyAuth, registerPasskey } from './fixtures.js'

describe('POST /passkey/verify-authentication from another site', () => {
  it('without cookies is refused with 403, sets no cookie and makes no session', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const user = await newUser(auth)
    await registerPasskey(auth, authenticator, user.cookie)
    const options = await call(auth, '/passkey/generate-authenticate-options', '')
    const response = authenticator.authenticate(options.body)
    const { db } = await auth.$context
    const sessionsBefore = await db.count({ model: 'session' })

    const refused = await auth.handler(
      request('/api/auth/passkey/verify-authentication', {
        json: { response },
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    )
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    expect(refused.headers.getSetCookie()).toEqual([])
    expect(await db.count({ model: 'session' })).toBe(sessionsBefore)
  })
})
