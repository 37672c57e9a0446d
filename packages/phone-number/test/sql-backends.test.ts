/**
 * Phone numbers on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured. Twenty parallel verifications of one code for a new number
 * make one account and one session; two accounts racing to add one number:
 * the unique index gives it to one.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { ADA_PHONE, GRACE_PHONE, phoneAuth, post, textCode, type PhoneAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`phone numbers on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: PhoneAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = phoneAuth({ database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('twenty parallel verifications of one code for a new number: one account, one session', async () => {
      const code = await textCode(auth!, ADA_PHONE)
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(auth!, '/phone-number/verify', { phoneNumber: ADA_PHONE, code })))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      const { db } = await auth!.$context
      const users = await db.findMany<{ id: string }>({ model: 'user', where: { field: 'phoneNumber', value: ADA_PHONE } })
      expect(users).toHaveLength(1)
      expect(await db.count({ model: 'session', where: { field: 'userId', value: users[0]!.id } })).toBe(1)
    })

    it('two accounts adding one number at once: one holds it, the other hears it exists', async () => {
      const one = await signUp(auth!, { email: `one-${dialect}@example.com` })
      const two = await signUp(auth!, { email: `two-${dialect}@example.com` })
      const code = await textCode(auth!, GRACE_PHONE)
      // One code per number: both browsers were told the same code (a shared phone), and race to add it.
      const answers = await Promise.all([one, two].map((who) => post(auth!, '/phone-number/verify', { phoneNumber: GRACE_PHONE, code, updatePhoneNumber: true }, who.cookie)))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      const { db } = await auth!.$context
      expect(await db.count({ model: 'user', where: { field: 'phoneNumber', value: GRACE_PHONE } })).toBe(1)
    })
  })
}
