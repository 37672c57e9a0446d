/**
 * Password races on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured, where parallel requests run on separate pooled connections and
 * really interleave (the in-memory adapter serialises transactions). Each
 * backend gets its own schema or database, dropped afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAuth, authed, PASSWORD, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'
import { heldVerifier, raceSignInAgainst, REVOCATIONS } from './sign-in-races.js'

type Auth = ReturnType<typeof accountAuth>

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`password races: ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: Auth | undefined
    // The same database through an auth whose password verifications can be held (sign-in-races.ts).
    const verifier = heldVerifier()
    let held: Auth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = accountAuth({ database: backend.factory })
      await (await auth.$context).adapter.migrate?.()
      held = accountAuth({ database: backend.factory, emailAndPassword: { enabled: true, password: verifier.password } })
    })
    afterAll(async () => {
      if (held) await (await held.$context).adapter.close?.()
      if (auth) await (await auth.$context).adapter.close?.()
      await backend?.drop()
    })

    function ready(): Auth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('one reset token, several concurrent resets: exactly one succeeds and the token is gone', async () => {
      const current = ready()
      await signUp(current, { email: 'reset-race@example.com' })
      await current.handler(
        request('/api/auth/request-password-reset', { json: { email: 'reset-race@example.com' }, headers: { origin: BASE } }),
      )
      const token = current.mailbox.last('reset-password')?.token ?? ''
      const passwords = ['first new passphrase', 'second new passphrase', 'third new passphrase']
      const responses = await Promise.all(
        passwords.map((newPassword) =>
          current.handler(request('/api/auth/reset-password', { json: { newPassword, token }, headers: { origin: BASE } })),
        ),
      )
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400])
      const winner = passwords[responses.findIndex((response) => response.status === 200)] ?? ''
      expect((await signIn(current, { email: 'reset-race@example.com', password: winner })).response.status).toBe(200)
      const { adapter } = await current.$context
      expect(await adapter.count({ model: 'verification' })).toBe(0)
    })

    it('concurrent password changes with the same current password: exactly one wins', async () => {
      const current = ready()
      const { cookie } = await signUp(current, { email: 'change-race@example.com' })
      const passwords = ['first new passphrase', 'second new passphrase', 'third new passphrase']
      const responses = await Promise.all(
        passwords.map((newPassword) =>
          current.handler(
            authed('/api/auth/change-password', cookie, {
              method: 'POST',
              json: { currentPassword: PASSWORD, newPassword },
            }),
          ),
        ),
      )
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400])
      const winner = passwords[responses.findIndex((response) => response.status === 200)] ?? ''
      expect((await signIn(current, { email: 'change-race@example.com', password: winner })).response.status).toBe(200)
    })

    for (const revocation of REVOCATIONS) {
      it(`a password sign-in held between its check and its session leaves none after ${revocation.name}`, async () => {
        if (!held) throw new Error('backend not ready')
        await raceSignInAgainst(held, verifier, `held-${revocation.name.replace(/\W+/g, '-')}@example.com`, revocation)
      })
    }
  })
}
