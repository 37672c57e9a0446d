/**
 * `auth.api.cleanup()` with the provider (docs/oidc-provider.md#cleanup), on
 * memory, SQLite and, when configured, PostgreSQL and MariaDB: a token row
 * goes once its access token has expired and its refresh token has expired
 * too or never existed; a row whose refresh token is live stays, rotated or
 * not, and still refreshes.
 */
import { describe, expect, it } from 'vitest'
import { backendDialects } from '../../core/test/kysely-backends.js'
import {
  authorizeCode,
  createClient,
  newUser,
  offlineTokens,
  providerAuth,
  redeem,
  refreshGrant,
  tokenRows,
  type ProviderAuth,
  type TestClient,
  type TestUser,
} from './fixtures.js'
import { useProviderBackend } from './provider-backends.js'

const DAY = 86_400_000

/** Tokens without offline_access: the row has no refresh token. */
async function accessOnly(auth: ProviderAuth, user: TestUser, client: TestClient): Promise<string> {
  const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'openid email' })
  const reply = await redeem(auth, client, code, verifier)
  expect(reply.status).toBe(200)
  expect(reply.body.refresh_token).toBeUndefined()
  return reply.body.access_token as string
}

/** Row ids of the client's token rows, sorted, and which of them are rotated. */
async function rows(auth: ProviderAuth, clientId: string) {
  const found = await tokenRows(auth, clientId)
  return found
    .map((row) => ({ id: String(row.id), rotated: row.rotatedAt !== null, refresh: row.refreshToken !== null }))
    .sort((a, b) => a.id.localeCompare(b.id))
}

const backends = [{ dialect: 'memory', enabled: true }, ...backendDialects] as const

for (const { dialect, enabled } of backends) {
  describe.skipIf(!enabled)(`oidc provider cleanup on ${dialect}`, () => {
    const ready = useProviderBackend(dialect)

    it('deletes rows with both expiries past (or no refresh token), keeps rows with a live refresh token', async () => {
      const auth = ready()
      const client = await createClient(auth)
      // Day 0: an offline grant (access 1 h, refresh 7 days) and an access-only grant.
      const { user, tokens } = await offlineTokens(auth, client)
      await accessOnly(auth, user, client)
      const [offlineRow] = (await rows(auth, client.clientId)).filter((row) => row.refresh)
      expect(offlineRow).toBeDefined()

      // Day 1: the offline grant is refreshed (the day-0 row is rotated, its refresh still unexpired) and a new access-only grant.
      auth.clock.advance(DAY)
      const refreshed = await refreshGrant(auth, client, tokens.refresh_token)
      expect(refreshed.status).toBe(200)
      await accessOnly(auth, user, client)
      const before = await rows(auth, client.clientId)
      expect(before).toHaveLength(4)

      const first = await auth.api.cleanup()
      expect(first.deleted.oauthAccessToken).toBe(1)
      const afterFirst = await rows(auth, client.clientId)
      // The day-0 access-only row went; the rotated row stays, so reusing its token is still caught as reuse.
      expect(afterFirst).toHaveLength(3)
      expect(afterFirst.filter((row) => row.refresh)).toHaveLength(2)
      expect(afterFirst.find((row) => row.rotated)?.id).toBe(offlineRow?.id)

      // Day 7 + 1 ms: the rotated row's refresh token expired; the day-1 access token expired, no refresh token.
      auth.clock.advance(6 * DAY + 1)
      expect((await auth.api.cleanup()).deleted.oauthAccessToken).toBe(2)
      const afterSecond = await rows(auth, client.clientId)
      expect(afterSecond).toEqual([{ id: expect.any(String), rotated: false, refresh: true }])
      expect((await auth.api.cleanup()).deleted.oauthAccessToken).toBe(0)

      // The kept row is live: its refresh token (issued on day 1, valid until day 8) still works.
      const again = await refreshGrant(auth, client, refreshed.body.refresh_token)
      expect(again.status).toBe(200)
    })
  })
}
