/**
 * Sign-in through `auth.handler`: options for discoverable credentials,
 * assertions from the software authenticator with each algorithm, the
 * session it creates (cookie, row, get-session), the counter, and every
 * refusal (wrong origin, wrong relying party id hash, wrong, expired, reused
 * or register challenge, a counter that does not grow, an unknown or
 * deleted credential, another user's handle, a missing UV flag when
 * required, a banned user), and parallel answers to one challenge.
 */
import { AuthError, defineErrors } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authenticatorFor, call, getSession, newUser, passkeyAuth, registerPasskey, signInWithPasskey, type PasskeyAuth } from './fixtures.js'

const TestErrors = defineErrors({ BANNED_USER: { status: 403, message: 'You have been banned from this application' } })

async function withPasskey(auth: PasskeyAuth, defaults: Parameters<typeof authenticatorFor>[0] = {}) {
  const authenticator = authenticatorFor(defaults)
  const user = await newUser(auth)
  const { verified } = await registerPasskey(auth, authenticator, user.cookie)
  expect(verified.status).toBe(200)
  return { authenticator, user, passkeyId: verified.body.id as string }
}

async function storedCounter(auth: PasskeyAuth, id: string): Promise<number> {
  const { db } = await auth.$context
  const row = await db.findOne<{ counter: number }>({ model: 'passkey', where: { field: 'id', value: id } })
  return Number(row?.counter)
}

describe('GET /passkey/generate-authenticate-options', () => {
  it('answers the same shape for anyone: no credentials listed, a 32-byte challenge, a challenge cookie', async () => {
    const auth = passkeyAuth()
    const answer = await call(auth, '/passkey/generate-authenticate-options', '')
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ rpId: 'localhost', userVerification: 'required', timeout: 300_000 })
    expect(answer.body.allowCredentials ?? []).toEqual([])
    expect(Buffer.from(answer.body.challenge, 'base64url')).toHaveLength(32)
    expect(answer.cookie).toMatch(/^gatehouse\.passkey_challenge=/)
  })
})

describe('POST /passkey/verify-authentication', () => {
  it.each(['ES256', 'RS256', 'EdDSA'] as const)('signs in with a %s passkey: session cookie, session row, counter moved on', async (algorithm) => {
    const auth = passkeyAuth()
    const { authenticator, user, passkeyId } = await withPasskey(auth, { algorithm })
    const answer = await signInWithPasskey(auth, authenticator)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ token: expect.any(String), user: { id: user.userId, email: 'ada@example.com' } })
    expect(answer.cookie).toMatch(/gatehouse\.session_token=/)
    expect(answer.cookie).not.toMatch(/passkey_challenge/)
    expect((await getSession(auth, answer.cookie)).user).toMatchObject({ id: user.userId })
    expect(await storedCounter(auth, passkeyId)).toBe(1)
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.userId } })).toBe(2)
  })

  it('accepts an authenticator that never counts (counter stays 0)', async () => {
    const auth = passkeyAuth()
    const { authenticator, passkeyId } = await withPasskey(auth, { counts: false })
    expect((await signInWithPasskey(auth, authenticator)).status).toBe(200)
    expect((await signInWithPasskey(auth, authenticator)).status).toBe(200)
    expect(await storedCounter(auth, passkeyId)).toBe(0)
  })

  it('refuses a counter that does not grow once non-zero, and leaves it where it was', async () => {
    const auth = passkeyAuth()
    const { authenticator, passkeyId } = await withPasskey(auth)
    expect((await signInWithPasskey(auth, authenticator, { counter: 5 })).status).toBe(200)
    for (const counter of [5, 4, 0]) {
      const answer = await signInWithPasskey(auth, authenticator, { counter })
      expect(answer, `counter ${counter}`).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' } })
      expect(answer.cookie).not.toMatch(/session_token/)
    }
    expect(await storedCounter(auth, passkeyId)).toBe(5)
    expect((await signInWithPasskey(auth, authenticator, { counter: 6 })).status).toBe(200)
  })

  it('refuses a wrong origin, a wrong relying party id hash, a wrong challenge, a create answer type, no user presence', async () => {
    const auth = passkeyAuth()
    const { authenticator, user } = await withPasskey(auth)
    for (const overrides of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { challenge: Buffer.alloc(32, 9).toString('base64url') },
      { type: 'webauthn.create' },
      { userPresent: false },
    ]) {
      const answer = await signInWithPasskey(auth, authenticator, overrides)
      expect(answer, JSON.stringify(overrides)).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED' } })
    }
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.userId } })).toBe(1)
  })

  it('refuses an unknown credential, a deleted one, and a user handle other than the credential\'s', async () => {
    const auth = passkeyAuth()
    const { authenticator, user, passkeyId } = await withPasskey(auth)
    const stranger = authenticatorFor()
    stranger.register({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } })
    expect(await signInWithPasskey(auth, stranger)).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED' } })
    expect(await signInWithPasskey(auth, authenticator, { userHandle: 'QUJD' })).toMatchObject({ status: 401 })
    // No handle at all (a non-discoverable credential) is allowed: the credential id names the user.
    expect((await signInWithPasskey(auth, authenticator, { userHandle: null })).status).toBe(200)
    expect((await call(auth, '/passkey/delete-passkey', user.cookie, { id: passkeyId })).status).toBe(200)
    expect(await signInWithPasskey(auth, authenticator)).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED' } })
  })

  it('requires the UV flag when userVerification is required, and asks for it in the options', async () => {
    const auth = passkeyAuth({ userVerification: 'required' })
    const { authenticator } = await withPasskey(auth)
    const options = await call(auth, '/passkey/generate-authenticate-options', '')
    expect(options.body.userVerification).toBe('required')
    expect(await signInWithPasskey(auth, authenticator, { userVerified: false })).toMatchObject({ status: 401 })
    expect((await signInWithPasskey(auth, authenticator, { userVerified: true })).status).toBe(200)
  })

  it('by default refuses an assertion without user verification: no session', async () => {
    const auth = passkeyAuth()
    const { authenticator, user } = await withPasskey(auth)
    const answer = await signInWithPasskey(auth, authenticator, { userVerified: false })
    expect(answer).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' } })
    expect(answer.cookie).not.toMatch(/session_token/)
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.userId } })).toBe(1)
    // The authenticator verifies the user when the options ask: then it signs in.
    expect((await signInWithPasskey(auth, authenticator)).status).toBe(200)
  })

  it('accepts presence without verification when userVerification is preferred', async () => {
    const auth = passkeyAuth({ userVerification: 'preferred' })
    const { authenticator } = await withPasskey(auth)
    expect((await signInWithPasskey(auth, authenticator, { userVerified: false })).status).toBe(200)
  })

  it('a challenge works once, only from the browser it was issued to, not for registration, and not after 5 minutes', async () => {
    const auth = passkeyAuth()
    const { authenticator, user } = await withPasskey(auth)
    const options = await call(auth, '/passkey/generate-authenticate-options', '')
    const response = authenticator.authenticate(options.body)
    expect(await call(auth, '/passkey/verify-authentication', '', { response })).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })
    expect((await call(auth, '/passkey/verify-authentication', options.cookie, { response })).status).toBe(200)
    expect(await call(auth, '/passkey/verify-authentication', options.cookie, { response })).toMatchObject({
      status: 400,
      body: { code: 'CHALLENGE_NOT_FOUND' },
    })

    const register = await call(auth, '/passkey/generate-register-options', user.cookie)
    const withRegisterChallenge = authenticator.authenticate({ challenge: register.body.challenge, rpId: 'localhost' })
    const refused = await call(auth, '/passkey/verify-authentication', register.cookie, { response: withRegisterChallenge })
    expect(refused).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })

    const late = await call(auth, '/passkey/generate-authenticate-options', '')
    auth.clock.advance(300_000)
    const expired = await call(auth, '/passkey/verify-authentication', late.cookie, { response: authenticator.authenticate(late.body) })
    expect(expired).toMatchObject({ status: 400, body: { code: 'CHALLENGE_EXPIRED' } })
  })

  it('a tampered challenge cookie counts as none', async () => {
    const auth = passkeyAuth()
    const { authenticator } = await withPasskey(auth)
    const options = await call(auth, '/passkey/generate-authenticate-options', '')
    const tampered = options.cookie.replace(/=([A-Za-z0-9])/, (_, first: string) => `=${first === 'a' ? 'b' : 'a'}`)
    const answer = await call(auth, '/passkey/verify-authentication', tampered, { response: authenticator.authenticate(options.body) })
    expect(answer).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })
  })

  it('twenty parallel answers to one challenge: one session', async () => {
    const auth = passkeyAuth()
    const { authenticator, user } = await withPasskey(auth, { counts: false })
    const options = await call(auth, '/passkey/generate-authenticate-options', '')
    const response = authenticator.authenticate(options.body)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(auth, '/passkey/verify-authentication', options.cookie, { response })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.body?.code === 'CHALLENGE_NOT_FOUND')).toHaveLength(19)
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.userId } })).toBe(2)
  })

  it('a hook that refuses sessions (an admin ban) still decides: its answer, no session, the counter stays', async () => {
    let banned = false
    const auth = passkeyAuth({}, {
      databaseHooks: {
        session: {
          create: {
            before: () => {
              if (banned) throw new AuthError(TestErrors.BANNED_USER)
            },
          },
        },
      },
    })
    const { authenticator, user, passkeyId } = await withPasskey(auth)
    banned = true
    const answer = await signInWithPasskey(auth, authenticator)
    expect(answer).toMatchObject({ status: 403, body: { code: 'BANNED_USER', message: 'You have been banned from this application' } })
    expect(answer.cookie).not.toMatch(/session_token/)
    expect(await storedCounter(auth, passkeyId)).toBe(0)
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.userId } })).toBe(1)
  })

  it('a session that cannot be written is 500 "Unable to create session", and the counter stays', async () => {
    let broken = false
    const auth = passkeyAuth({}, {
      databaseHooks: {
        session: {
          create: {
            before: () => {
              if (broken) throw new Error('disk full')
            },
          },
        },
      },
    })
    const { authenticator, passkeyId } = await withPasskey(auth)
    broken = true
    const answer = await signInWithPasskey(auth, authenticator)
    expect(answer).toMatchObject({ status: 500, body: { code: 'UNABLE_TO_CREATE_SESSION', message: 'Unable to create session' } })
    expect(await storedCounter(auth, passkeyId)).toBe(0)
  })
})
