/**
 * The flows on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there parallel requests run on pooled connections and really
 * interleave). The table migrates; a credential registers and signs in;
 * twenty parallel answers to one challenge make one session; two sign-ins
 * racing with one counter value make one session; the 64-bit counter
 * round-trips; another user's passkey stays untouched. Each backend gets its own
 * schema or database, dropped after.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { authenticatorFor, call, newUser, PASSWORD, passkeyAuth, registerPasskey, signInWithPasskey, type PasskeyAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`passkeys on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: PasskeyAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = passkeyAuth({}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): PasskeyAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    async function sessionsOf(userId: string): Promise<number> {
      const { db } = await ready().$context
      return db.count({ model: 'session', where: { field: 'userId', value: userId } })
    }

    it('registers, lists and signs in; the counter is stored as a number past 2^31', async () => {
      const auth = ready()
      const authenticator = authenticatorFor({ algorithm: 'RS256' })
      const user = await newUser(auth, `flow-${dialect}@example.com`)
      const { verified } = await registerPasskey(auth, authenticator, user.cookie, { name: 'Key' })
      expect(verified.status).toBe(200)
      const big = 2 ** 31 + 5
      const signedIn = await signInWithPasskey(auth, authenticator, { counter: big })
      expect(signedIn).toMatchObject({ status: 200, body: { user: { id: user.userId } } })
      const listed = await call(auth, '/passkey/list-user-passkeys', user.cookie)
      expect(listed.body).toEqual([{ ...verified.body, counter: big }])
      expect(await signInWithPasskey(auth, authenticator, { counter: big })).toMatchObject({ status: 401 })
      expect((await signInWithPasskey(auth, authenticator, { counter: big + 1 })).status).toBe(200)
    })

    it('twenty parallel answers to one challenge: one session', async () => {
      const auth = ready()
      const authenticator = authenticatorFor({ counts: false })
      const user = await newUser(auth, `race-${dialect}@example.com`)
      await registerPasskey(auth, authenticator, user.cookie)
      const options = await call(auth, '/passkey/generate-authenticate-options', '')
      const response = authenticator.authenticate(options.body)
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(auth, '/passkey/verify-authentication', options.cookie, { response })))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      expect(answers.filter((answer) => answer.body?.code === 'CHALLENGE_NOT_FOUND')).toHaveLength(19)
      expect(await sessionsOf(user.userId)).toBe(2)
    })

    it('twenty parallel registrations answering one challenge: one passkey', async () => {
      const auth = ready()
      const authenticator = authenticatorFor()
      const user = await newUser(auth, `register-race-${dialect}@example.com`)
      const options = await call(auth, '/passkey/generate-register-options', user.cookie)
      const response = authenticator.register(options.body)
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(auth, '/passkey/verify-registration', options.cookie, { response, password: PASSWORD })))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      const { db } = await auth.$context
      expect(await db.count({ model: 'passkey', where: { field: 'userId', value: user.userId } })).toBe(1)
    })

    it('ten sign-ins racing with one counter value, each with its own challenge: one session', async () => {
      const auth = ready()
      const authenticator = authenticatorFor()
      const user = await newUser(auth, `counter-${dialect}@example.com`)
      await registerPasskey(auth, authenticator, user.cookie)
      const attempts = await Promise.all(Array.from({ length: 10 }, () => call(auth, '/passkey/generate-authenticate-options', '')))
      const answers = await Promise.all(
        attempts.map((options) =>
          call(auth, '/passkey/verify-authentication', options.cookie, { response: authenticator.authenticate(options.body, { counter: 1 }) }),
        ),
      )
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      expect(answers.filter((answer) => answer.status === 401)).toHaveLength(9)
      expect(await sessionsOf(user.userId)).toBe(2)
    })

    it('another user\'s passkey can be neither renamed nor deleted', async () => {
      const auth = ready()
      const owner = await newUser(auth, `owner-${dialect}@example.com`)
      const other = await newUser(auth, `other-${dialect}@example.com`)
      const { verified } = await registerPasskey(auth, authenticatorFor(), owner.cookie, { name: 'Mine' })
      expect(await call(auth, '/passkey/update-passkey', other.cookie, { id: verified.body.id, name: 'Taken' })).toMatchObject({ status: 404 })
      expect(await call(auth, '/passkey/delete-passkey', other.cookie, { id: verified.body.id })).toMatchObject({ status: 404 })
      expect((await call(auth, '/passkey/list-user-passkeys', owner.cookie)).body).toEqual([verified.body])
    })
  })
}
