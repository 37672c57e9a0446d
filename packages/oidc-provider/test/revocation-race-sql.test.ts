/**
 * A refresh and a revocation of the user's credentials racing on a real
 * database (PostgreSQL, MariaDB; SQLite runs one transaction at a time):
 * the refresh is held right after it wrote the new pair, with the spent
 * token's row locked, while sign-out everywhere starts. Without the user lock
 * both take (services/tokens.ts, services/end-grants.ts), the revocation's
 * delete would be waiting on that row when the new pair commits, and the new
 * pair would outlive the revocation. With it, the revocation waits for the
 * refresh and then deletes what it wrote.
 */
import type { AdapterFactory } from '@gatehouse/core'
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authed } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { afterInsertInTransaction } from '../../core/test/transaction-pause.js'
import { createClient, offlineTokens, providerAuth, refreshGrant, tokenRows, userinfo, type ProviderAuth } from './fixtures.js'

/** Holds the next transaction that writes a token row, right after that insert, until released. */
function gatedAdapter(factory: AdapterFactory) {
  let armed = false
  let reached: () => void = () => undefined
  let release: () => void = () => undefined
  const gated = afterInsertInTransaction(
    factory,
    ({ model }) => armed && model === 'oauthAccessToken',
    () => {
      armed = false
      const gate = new Promise<void>((resolve) => (release = resolve))
      reached()
      return gate
    },
  )
  return {
    factory: gated,
    /** Arms the gate; resolves once a transaction is held at it. */
    arm: () =>
      new Promise<void>((resolve) => {
        armed = true
        reached = resolve
      }),
    release: () => release(),
  }
}

for (const { dialect, enabled } of backendDialects.filter((entry) => entry.dialect !== 'sqlite')) {
  describe.skipIf(!enabled)(`a refresh racing a revocation on ${dialect}`, () => {
    let database: TestBackend | undefined
    let auth: ProviderAuth | undefined
    let gate: ReturnType<typeof gatedAdapter>
    beforeAll(async () => {
      database = await createTestBackend(dialect)
      gate = gatedAdapter(database.factory)
      auth = providerAuth({}, { database: gate.factory })
      await runMigrations(auth)
    })
    afterAll(async () => {
      await auth?.close()
      await database?.drop()
    })

    it('the pair a refresh writes while sign-out everywhere runs does not outlive it', async () => {
      if (!auth) throw new Error('backend not ready')
      const client = await createClient(auth)
      const { user, tokens } = await offlineTokens(auth, client)

      const held = gate.arm()
      const refreshing = refreshGrant(auth, client, tokens.refresh_token)
      await held
      const revoking = auth.handler(authed('/api/auth/revoke-sessions', user.cookie, { method: 'POST' }))
      // Let the revocation run until it waits for the refresh's locks.
      await new Promise((resolve) => setTimeout(resolve, 300))
      gate.release()
      const [refreshed, revoked] = await Promise.all([refreshing, revoking])

      expect(revoked.status).toBe(200)
      expect(refreshed.status).toBe(200)
      expect((await tokenRows(auth, client.clientId)).filter((row) => row.userId === user.id)).toEqual([])
      expect((await userinfo(auth, refreshed.body.access_token)).status).toBe(401)
      expect((await refreshGrant(auth, client, refreshed.body.refresh_token)).body.error).toBe('invalid_grant')
    })
  })
}
