/**
 * Registration through `auth.handler`: the options a signed-in user gets,
 * attestations from the software authenticator with each algorithm, the
 * stored row, and every refusal (no or stale session, wrong origin, wrong
 * relying party id hash, wrong, expired, reused or foreign challenge, a
 * sign-in challenge, missing user verification when required, a
 * credential registered twice).
 */
import { describe, expect, it } from 'vitest'
import { authenticatorFor, BASE, call, newUser, PASSWORD, passkeyAuth, registerPasskey } from './fixtures.js'

describe('GET /passkey/generate-register-options', () => {
  it('needs a session', async () => {
    const auth = passkeyAuth()
    const answer = await call(auth, '/passkey/generate-register-options', '')
    expect(answer).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    expect(answer.setCookies).toEqual([])
  })

  it('needs a fresh session', async () => {
    const auth = passkeyAuth()
    const { cookie } = await newUser(auth)
    auth.clock.advance(24 * 60 * 60 * 1000 + 1000)
    const answer = await call(auth, '/passkey/generate-register-options', cookie)
    expect(answer).toMatchObject({ status: 403, body: { code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' } })
  })

  it('answers options for the base URL relying party, a random user handle, a challenge cookie and a hashed stored challenge', async () => {
    const auth = passkeyAuth({ rpName: 'Example' })
    const { cookie, userId } = await newUser(auth)
    const answer = await call(auth, '/passkey/generate-register-options', cookie)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      rp: { id: 'localhost', name: 'Example' },
      user: { name: 'ada@example.com', displayName: 'ada' },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      timeout: 300_000,
    })
    const handle = Buffer.from(answer.body.user.id, 'base64url')
    expect(handle).toHaveLength(32)
    expect(handle.toString()).not.toContain(userId)
    expect(Buffer.from(answer.body.challenge, 'base64url')).toHaveLength(32)
    expect(answer.setCookies.find((line) => line.startsWith('gatehouse.passkey_challenge='))).toMatch(/Max-Age=300.*HttpOnly|HttpOnly.*Max-Age=300/i)
    const { db } = await auth.$context
    const rows = await db.findMany<{ identifier: string; value: string }>({ model: 'verification' })
    const row = rows.find((entry) => entry.identifier.startsWith('passkey-challenge:'))!
    expect(row.value).not.toContain(answer.body.challenge)
    expect(JSON.parse(row.value)).toMatchObject({ purpose: 'register', userId })
  })

  it('uses the configured relying party and lists existing passkeys as excluded, with one user handle', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const { cookie } = await newUser(auth)
    const first = await registerPasskey(auth, authenticator, cookie)
    expect(first.verified.status).toBe(200)
    const again = await call(auth, '/passkey/generate-register-options', cookie)
    expect(again.body.excludeCredentials).toEqual([{ id: first.response.id, type: 'public-key', transports: ['internal', 'hybrid'] }])
    expect(again.body.user.id).toBe(first.options.body.user.id)
    expect(again.body.challenge).not.toBe(first.options.body.challenge)
  })
})

describe('POST /passkey/verify-registration', () => {
  it.each(['ES256', 'RS256', 'EdDSA'] as const)('stores a %s credential with its details', async (algorithm) => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor({ algorithm })
    const { cookie, userId } = await newUser(auth)
    const { response, verified } = await registerPasskey(auth, authenticator, cookie, { name: ' Laptop ' })
    expect(verified.status).toBe(200)
    expect(verified.body).toEqual({
      id: expect.any(String),
      userId,
      name: 'Laptop',
      credentialID: response.id,
      counter: 0,
      deviceType: 'multiDevice',
      backedUp: true,
      transports: 'internal,hybrid',
      aaguid: '00000000-0000-0000-0000-000000000000',
      createdAt: expect.any(String),
    })
    expect(verified.setCookies.some((line) => /^gatehouse\.passkey_challenge=;/.test(line))).toBe(true)
    const { db } = await auth.$context
    const row = await db.findOne<Record<string, unknown>>({ model: 'passkey', where: { field: 'id', value: verified.body.id } })
    expect(row).toMatchObject({ userId, credentialID: response.id, counter: 0, userHandle: authenticator.credentials[0]!.userHandle })
    expect(typeof row!.publicKey).toBe('string')
    expect(await db.count({ model: 'verification' })).toBe(0)
  })

  it('refuses a wrong origin, a wrong relying party id hash, a wrong challenge and a sign-in answer type', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const { cookie } = await newUser(auth)
    for (const overrides of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { challenge: Buffer.alloc(32, 7).toString('base64url') },
      { type: 'webauthn.get' },
      { userPresent: false },
    ]) {
      const { verified } = await registerPasskey(auth, authenticator, cookie, { overrides })
      expect(verified, JSON.stringify(overrides)).toMatchObject({
        status: 400,
        body: { code: 'FAILED_TO_VERIFY_REGISTRATION', message: 'Failed to verify registration' },
      })
    }
    const { db } = await auth.$context
    expect(await db.count({ model: 'passkey' })).toBe(0)
  })

  it('by default refuses a credential made without user verification (a key without a PIN), and asks for it', async () => {
    const auth = passkeyAuth()
    const { cookie } = await newUser(auth)
    const keyWithoutPin = await registerPasskey(auth, authenticatorFor({ userVerified: false }), cookie)
    expect(keyWithoutPin.options.body.authenticatorSelection.userVerification).toBe('required')
    expect(keyWithoutPin.verified).toMatchObject({ status: 400, body: { code: 'FAILED_TO_VERIFY_REGISTRATION' } })
    // Whatever the options said: a UV flag left out by the answer is refused too.
    const unflagged = await registerPasskey(auth, authenticatorFor(), cookie, { overrides: { userVerified: false } })
    expect(unflagged.verified).toMatchObject({ status: 400, body: { code: 'FAILED_TO_VERIFY_REGISTRATION' } })
    const { db } = await auth.$context
    expect(await db.count({ model: 'passkey' })).toBe(0)
    expect((await registerPasskey(auth, authenticatorFor(), cookie)).verified.status).toBe(200)
  })

  it('with userVerification preferred, user presence is enough', async () => {
    const auth = passkeyAuth({ userVerification: 'preferred' })
    const { cookie } = await newUser(auth)
    const keyWithoutPin = await registerPasskey(auth, authenticatorFor({ userVerified: false }), cookie)
    expect(keyWithoutPin.options.body.authenticatorSelection.userVerification).toBe('preferred')
    expect(keyWithoutPin.verified.status).toBe(200)
  })

  it('accepts an origin from the configured list, and user verification only when required', async () => {
    const auth = passkeyAuth({ rpID: 'localhost', origin: ['https://other.test', BASE], userVerification: 'required' })
    const { cookie } = await newUser(auth)
    const unverified = await registerPasskey(auth, authenticatorFor({ userVerified: false }), cookie)
    expect(unverified.verified).toMatchObject({ status: 400, body: { code: 'FAILED_TO_VERIFY_REGISTRATION' } })
    expect(unverified.options.body.authenticatorSelection.userVerification).toBe('required')
    const verified = await registerPasskey(auth, authenticatorFor(), cookie)
    expect(verified.verified.status).toBe(200)
  })

  it('a challenge works once, in the browser it was issued to, and not after 5 minutes', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const { cookie } = await newUser(auth)
    const options = await call(auth, '/passkey/generate-register-options', cookie)
    const response = authenticator.register(options.body)
    // Another browser of the same user (its session cookie, not the challenge cookie).
    const elsewhere = await call(auth, '/passkey/verify-registration', cookie, { response, password: PASSWORD })
    expect(elsewhere).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND', message: 'Challenge not found or already used. Start again' } })
    const first = await call(auth, '/passkey/verify-registration', options.cookie, { response, password: PASSWORD })
    expect(first.status).toBe(200)
    const replay = await call(auth, '/passkey/verify-registration', options.cookie, { response, password: PASSWORD })
    expect(replay).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })

    const late = await call(auth, '/passkey/generate-register-options', cookie)
    auth.clock.advance(300_000)
    const expired = await call(auth, '/passkey/verify-registration', late.cookie, { response: authenticator.register(late.body), password: PASSWORD })
    expect(expired).toMatchObject({ status: 400, body: { code: 'CHALLENGE_EXPIRED', message: 'Challenge expired. Start again' } })
  })

  it('refuses a sign-in challenge and a challenge issued to another user in the same browser', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const ada = await newUser(auth)
    const bob = await newUser(auth, 'bob@example.com')
    const signInOptions = await call(auth, '/passkey/generate-authenticate-options', ada.cookie)
    const fake = authenticator.register({ challenge: signInOptions.body.challenge, rp: { id: 'localhost' }, user: { id: 'AAAA' } })
    const wrongPurpose = await call(auth, '/passkey/verify-registration', signInOptions.cookie, { response: fake, password: PASSWORD })
    expect(wrongPurpose).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })

    const adaOptions = await call(auth, '/passkey/generate-register-options', ada.cookie)
    const challengeCookie = adaOptions.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.passkey_challenge='))!
    const asBob = await call(auth, '/passkey/verify-registration', `${bob.cookie}; ${challengeCookie}`, { response: authenticator.register(adaOptions.body), password: PASSWORD })
    expect(asBob).toMatchObject({ status: 400, body: { code: 'CHALLENGE_NOT_FOUND' } })
    const { db } = await auth.$context
    expect(await db.count({ model: 'passkey' })).toBe(0)
  })

  it('refuses a credential registered twice, for the same or another user', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const ada = await newUser(auth)
    const bob = await newUser(auth, 'bob@example.com')
    const first = await registerPasskey(auth, authenticator, ada.cookie)
    expect(first.verified.status).toBe(200)
    for (const cookie of [ada.cookie, bob.cookie]) {
      const options = await call(auth, '/passkey/generate-register-options', cookie)
      const again = authenticator.register(options.body, { credential: authenticator.credentials[0]! })
      const answer = await call(auth, '/passkey/verify-registration', options.cookie, { response: again, password: PASSWORD })
      expect(answer).toMatchObject({ status: 400, body: { code: 'PASSKEY_ALREADY_REGISTERED', message: 'This passkey is already registered' } })
    }
    const { db } = await auth.$context
    expect(await db.count({ model: 'passkey' })).toBe(1)
  })

  it('refuses a malformed answer before any work, keeping the challenge', async () => {
    const auth = passkeyAuth()
    const { cookie } = await newUser(auth)
    const options = await call(auth, '/passkey/generate-register-options', cookie)
    const answer = await call(auth, '/passkey/verify-registration', options.cookie, { response: { id: 'x', type: 'public-key' } })
    expect(answer.status).toBe(400)
    expect(answer.body.code).not.toBe('CHALLENGE_NOT_FOUND')
    const proper = await call(auth, '/passkey/verify-registration', options.cookie, { response: authenticatorFor().register(options.body), password: PASSWORD })
    expect(proper.status).toBe(200)
  })
})
