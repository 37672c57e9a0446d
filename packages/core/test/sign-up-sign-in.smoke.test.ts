import { describe, expect, it } from 'vitest'
import { accountAuth, authed, signIn, signUp } from './accounts.js'

describe('smoke: sign-up, get-session, sign-in', () => {
  it('works end to end', async () => {
    const auth = accountAuth()
    const up = await signUp(auth, { email: 'Ada@Example.com' })
    expect(up.response.status).toBe(200)
    expect(up.body.user.email).toBe('ada@example.com')
    expect(typeof up.body.token).toBe('string')
    const session = await auth.handler(authed('/api/auth/get-session', up.cookie))
    const data = await session.json()
    expect(data.user.email).toBe('ada@example.com')
    const inAgain = await signIn(auth, { email: 'ada@example.com' })
    expect(inAgain.response.status).toBe(200)
    const bad = await signIn(auth, { email: 'ada@example.com', password: 'wrong password!' })
    expect(bad.response.status).toBe(401)
    expect(bad.body).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })
  })
})
