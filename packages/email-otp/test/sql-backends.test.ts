/**
 * Email codes on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (parallel requests really interleave on pooled connections).
 * Of twenty parallel sign-ins with one code for a new address exactly one
 * wins: one user, one session; twenty parallel wrong codes spend the three
 * tries and no more.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { askCode, codeAuth, otherCode, post, rows, type CodeAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`email codes on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: CodeAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = codeAuth({ database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('twenty parallel sign-ins with one code: one user, one session', async () => {
      const email = `race-${dialect}@example.com`
      const code = await askCode(auth!, email)
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(auth!, '/sign-in/email-otp', { email, otp: code })))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      const users = await rows(auth!, 'user', 'email', email)
      expect(users).toHaveLength(1)
      expect(await rows(auth!, 'session', 'userId', String(users[0]!.id))).toHaveLength(1)
    })

    it('twenty parallel wrong codes: three tries spent, then the code is void', async () => {
      const email = `guess-${dialect}@example.com`
      const code = (await askCode(auth!, email))!
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(auth!, '/sign-in/email-otp', { email, otp: otherCode(code) })))
      expect(answers.filter((answer) => answer.body.code === 'TOO_MANY_ATTEMPTS')).toHaveLength(1)
      expect((await post(auth!, '/sign-in/email-otp', { email, otp: code })).body.code).toBe('INVALID_OTP')
    })
  })
}
