/**
 * `emailAndPassword.preventEnumeration` (docs/security.md#account-enumeration-at-sign-up):
 * a sign-up with a taken address answers exactly as one with a new address
 * (status, body shape, cookies, hashing work), the owner is told through
 * `onExistingUserSignUp`, and the sign-in that follows with the chosen
 * password does not tell them apart either.
 */
import { describe, expect, it } from 'vitest'
import type { Row } from '../src/db/adapter.js'
import { defaultPasswordHasher } from '../src/password/index.js'
import type { User } from '../src/types/rows.js'
import { accountAuth, browserAnswer, PASSWORD, signIn, signUp } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request } from './helpers.js'

const CHOSEN = 'an attacker chose this'

function enumerationAuth(onExistingUserSignUp?: (data: { user: User }) => void) {
  const hashed: string[] = []
  const logs = captureLogs()
  const auth = accountAuth({
    logger: logs.logger,
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      preventEnumeration: true,
      onExistingUserSignUp,
      // The built-in hasher, counted: a taken address must cost the same work.
      password: { hash: (password) => (hashed.push(password), defaultPasswordHasher.hash(password)) },
    },
  })
  return Object.assign(auth, { hashed, logs })
}

async function attempt(auth: ReturnType<typeof enumerationAuth>, email: string) {
  const response = await auth.handler(
    request('/api/auth/sign-up/email', { json: { name: 'Mallory', email, password: CHOSEN }, headers: { origin: BASE } }),
  )
  return browserAnswer(response)
}

/** What an observer can compare: status, the body's keys in order and the types of its values, cookie names and attributes. */
function shape(answer: { status: number; body: Record<string, unknown>; setCookies: readonly string[] }) {
  const user = answer.body.user as Record<string, unknown>
  return {
    status: answer.status,
    keys: Object.keys(answer.body),
    token: answer.body.token,
    user: Object.entries(user).map(([key, value]) => [key, value === null ? 'null' : typeof value]),
    cookies: answer.setCookies.map((line) => line.replace(/=[^;]*/, '=…')),
  }
}

async function rows(auth: ReturnType<typeof enumerationAuth>, model: string) {
  const { db } = await auth.$context
  return db.findMany<Row>({ model })
}

describe('emailAndPassword.preventEnumeration', () => {
  it('a taken address answers as a new one: 200, the same body shape and cookies, a stand-in user, the same hashing', async () => {
    const told: User[] = []
    const auth = enumerationAuth(({ user }) => void told.push(user))
    const owner = await signUp(auth, { email: 'ada@example.com', password: PASSWORD })
    const hashesBefore = auth.hashed.length
    const mailsBefore = auth.mailbox.mails.length

    const fresh = await attempt(auth, 'new@example.com')
    const taken = await attempt(auth, 'Ada@Example.com')
    expect(fresh.status).toBe(200)
    expect(shape(taken)).toEqual(shape(fresh))
    expect(taken.body).toMatchObject({ token: null, user: { email: 'ada@example.com', name: 'Mallory', emailVerified: false, image: null } })
    // No session cookie either way (requireEmailVerification); a stand-in id, not the owner's.
    expect(taken.setCookies.some((line) => line.includes('session_token'))).toBe(false)
    expect(taken.body.user.id).not.toBe(owner.body.user.id)
    expect(auth.hashed.length - hashesBefore).toBe(2)

    // Nothing stored for the taken address; the owner is told, and only the new address got a verification mail.
    expect((await rows(auth, 'user')).map((row) => row.email).sort()).toEqual(['ada@example.com', 'new@example.com'])
    expect((await rows(auth, 'user')).some((row) => row.id === taken.body.user.id)).toBe(false)
    expect(told.map((user) => [user.id, user.email])).toEqual([[owner.body.user.id, 'ada@example.com']])
    expect(auth.mailbox.mails.slice(mailsBefore).map((mail) => mail.to)).toEqual(['new@example.com'])
  })

  it('the sign-in that follows with the chosen password answers 401 for both, with no mail and no cookie', async () => {
    const auth = enumerationAuth()
    await signUp(auth, { email: 'ada@example.com', password: PASSWORD })
    await attempt(auth, 'new@example.com')
    await attempt(auth, 'ada@example.com')
    const mailsBefore = auth.mailbox.mails.length

    const fresh = await browserAnswer((await signIn(auth, { email: 'new@example.com', password: CHOSEN })).response)
    const taken = await browserAnswer((await signIn(auth, { email: 'ada@example.com', password: CHOSEN })).response)
    expect(fresh).toEqual({ ...taken, body: fresh.body })
    expect(fresh.body).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })
    expect(taken.body).toEqual(fresh.body)
    expect(fresh.setCookies).toEqual([])
    expect(auth.mailbox.mails.length).toBe(mailsBefore)
  })

  it('a failing onExistingUserSignUp is logged, never answered', async () => {
    const auth = enumerationAuth(() => {
      throw new Error('smtp down')
    })
    await signUp(auth, { email: 'ada@example.com', password: PASSWORD })
    const taken = await attempt(auth, 'ada@example.com')
    expect(taken.status).toBe(200)
    expect(auth.logs.lines.some((line) => line.includes('existing-user-sign-up'))).toBe(true)
  })

  it('off by default: a taken address is 422 "User already exists"; on, it needs requireEmailVerification', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: true, requireEmailVerification: true } })
    await signUp(auth, { email: 'ada@example.com' })
    const again = await signUp(auth, { email: 'ada@example.com' })
    expect(again.response.status).toBe(422)
    expect(again.body).toEqual({ code: 'USER_ALREADY_EXISTS', message: 'User already exists' })
    expect(() => accountAuth({ emailAndPassword: { enabled: true, preventEnumeration: true } })).toThrow(
      /preventEnumeration` needs `emailAndPassword.requireEmailVerification: true`/,
    )
  })
})
