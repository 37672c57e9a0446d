/**
 * Signing keys on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured. The migration makes the `jwks` table with its unique
 * `supersedes` index, and twenty instances with their own connections (as
 * separate processes would have) racing for the first key end up signing
 * with one key, published to all.
 */
import { runMigrations } from '@gatehouse/core'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { signJwt } from '../src/keys/index.js'
import { fetchJwks, keysAuth, type KeysAuth } from './keys-fixtures.js'

const INSTANCES = 20

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`signing keys on ${dialect}`, () => {
    let backend: TestBackend | undefined
    const instances: KeysAuth[] = []

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      const options = { signing: { additionalAlgorithms: ['ES256' as const] } }
      for (let index = 0; index < INSTANCES; index++) instances.push(keysAuth(options, { database: backend.factory }))
      expect((await runMigrations(instances[0] as KeysAuth)).applied).toBe(true)
    })
    afterAll(async () => {
      for (const auth of instances) await auth.close()
      await backend?.drop()
    })

    it('twenty instances racing for the first keys sign with one key per algorithm, all verifiable', { timeout: 90_000 }, async () => {
      const tokens = await Promise.all(
        instances.flatMap((auth) =>
          (['RS256', 'ES256'] as const).map(async (alg) => {
            const exp = Math.floor(auth.clock.now().getTime() / 1000) + 3600
            return signJwt(await auth.ctx(), auth.resolved, { sub: 'u1', exp }, { alg })
          }),
        ),
      )
      const rows = await (backend as TestBackend).db.selectFrom('jwks').selectAll().execute()
      expect(rows.map((row) => row.alg).sort()).toEqual(['ES256', 'RS256'])
      expect(new Set(tokens.map((token) => decodeProtectedHeader(token).kid))).toEqual(new Set(rows.map((row) => row.id)))
      for (const row of rows) expect(String(row.privateKey)).toMatch(/^v1\./)

      const { body } = await fetchJwks(instances[INSTANCES - 1] as KeysAuth)
      expect(body.keys.map((key: JWK) => key.kid).sort()).toEqual(rows.map((row) => String(row.id)).sort())
      const keySet = createLocalJWKSet(body)
      for (const token of tokens) {
        await expect(jwtVerify(token, keySet, { currentDate: (instances[0] as KeysAuth).clock.now() })).resolves.toBeDefined()
      }
    })
  })
}
