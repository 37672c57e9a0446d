/**
 * A plugin's `signInChallenge` (docs/two-factor.md#signing-in): it runs on
 * POST /sign-in/email after the password was checked. An answer replaces
 * the sign-in's (no session row, no session or cache cookie); no answer
 * lets the sign-in go on; a wrong password never reaches it.
 */
import { describe, expect, it } from 'vitest'
import { definePlugin } from '../src/plugins/types.js'
import type { SignInAttempt } from '../src/types/contract.js'
import { accountAuth, PASSWORD, signIn, signUp } from './accounts.js'

function challengeAuth(answer: (attempt: SignInAttempt) => Record<string, unknown> | void) {
  const seen: SignInAttempt[] = []
  const plugin = definePlugin({
    id: 'challenger',
    signInChallenge: (ctx, attempt) => {
      seen.push(attempt)
      const result = answer(attempt)
      if (result) ctx.cookies.set('challenge', 'pending', { maxAge: 60 })
      return result
    },
  })
  const auth = accountAuth({ plugins: [plugin], session: { cookieCache: { enabled: true, maxAge: 300 } } })
  return Object.assign(auth, { seen })
}

describe('signInChallenge', () => {
  it('an answer replaces the sign-in: no session row, only the plugin’s cookie', async () => {
    const auth = challengeAuth(() => ({ secondStep: true }))
    const { body } = await signUp(auth, { email: 'ada@example.com' })
    const { db } = await auth.$context
    const before = await db.count({ model: 'session' })
    const { response } = await signIn(auth, { email: 'ada@example.com', rememberMe: false })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ secondStep: true })
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^gatehouse\.challenge=pending;/)])
    expect(await db.count({ model: 'session' })).toBe(before)
    expect(auth.seen).toEqual([{ user: expect.objectContaining({ id: body.user.id }), rememberMe: false, amr: ['pwd'] }])
  })

  it('no answer lets the sign-in create its session', async () => {
    const auth = challengeAuth(() => undefined)
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await signIn(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(200)
    expect(body.token).toEqual(expect.any(String))
    expect(auth.seen[0]?.rememberMe).toBe(true)
  })

  it('a wrong password never reaches the hook', async () => {
    const auth = challengeAuth(() => ({ secondStep: true }))
    await signUp(auth, { email: 'ada@example.com' })
    const { response } = await signIn(auth, { email: 'ada@example.com', password: `${PASSWORD}!` })
    expect(response.status).toBe(401)
    expect(auth.seen).toHaveLength(0)
  })
})
