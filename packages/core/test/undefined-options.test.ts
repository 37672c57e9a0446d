/**
 * An option given as `undefined` (`secret: process.env.AUTH_SECRET` with the
 * variable unset) counts as left out: its default applies.
 */
import { describe, expect, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { manualClock } from '../src/crypto/clock.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { signUp } from './accounts.js'
import { BASE, SECRET } from './helpers.js'

describe('options given as undefined', () => {
  it('take their defaults: routes under /api/auth, a 7-day session cookie named gatehouse.session_token', async () => {
    const auth = createAuth({
      baseURL: BASE,
      secret: SECRET,
      database: memoryAdapter(),
      logger: { disabled: true },
      clock: manualClock(),
      appName: undefined,
      basePath: undefined,
      trustedOrigins: undefined,
      plugins: undefined,
      rateLimit: { enabled: undefined, window: undefined, max: undefined },
      emailAndPassword: { enabled: true, minPasswordLength: undefined, autoSignIn: undefined },
      session: { expiresIn: undefined, updateAge: undefined, cookieCache: { enabled: undefined, maxAge: undefined } },
      advanced: { cookiePrefix: undefined, useSecureCookies: undefined, ipAddress: undefined, generateId: undefined },
    })
    const { response, body } = await signUp(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(200)
    expect(body.user.email).toBe('ada@example.com')
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('gatehouse.session_token='))
    expect(cookie).toMatch(/Max-Age=604800/)
  })
})
