/**
 * Usernames on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (parallel requests really interleave on pooled connections).
 * The unique index decides a race for one name, and the loser is told the
 * name is taken, not that its address is.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { nameAuth, PASSWORD, post, signUpNamed, type NameAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`usernames on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: NameAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = nameAuth({ database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('ten sign-ups racing for one name: one account holds it, the others are told it is taken', async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => signUpNamed(auth!, { username: index % 2 ? 'Racer' : 'RACER' })))
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      for (const answer of answers.filter((answer) => answer.status !== 200)) expect(answer.body.code).toBe('USERNAME_IS_ALREADY_TAKEN')
      const { db } = await auth!.$context
      expect(await db.count({ model: 'user', where: { field: 'username', value: 'racer' } })).toBe(1)
      expect((await post(auth!, '/sign-in/username', { username: 'racer', password: PASSWORD })).status).toBe(200)
    })
  })
}
