/**
 * The provider on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there parallel requests run on pooled connections and really
 * interleave). Migrations create the tables and unique indexes; a code
 * redeemed twenty times at once yields one token response and the losers'
 * replay revokes it; twenty parallel refreshes yield one new pair and the
 * reuse revokes the family. Each backend gets its own schema or database,
 * dropped after.
 */
import { runMigrations } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authed } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { backendDialects } from '../../core/test/kysely-backends.js'
import {
  authorizeCode,
  createClient,
  expectOneWinner,
  newUser,
  offlineTokens,
  redeem,
  refreshGrant,
  tokenRows,
  userinfo,
  verifyIdToken,
} from './fixtures.js'
import { useProviderBackend } from './provider-backends.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`oidc provider on ${dialect}`, () => {
    const ready = useProviderBackend(dialect, (migration) => expect(migration.applied).toBe(true))

    it('migrations create every table and a second run has nothing to do', async () => {
      const auth = ready()
      const { adapter } = await auth.$context
      for (const model of ['oauthApplication', 'oauthAccessToken', 'oauthConsent', 'jwks']) expect(await adapter.count({ model })).toBe(0)
      expect((await runMigrations(auth)).statements).toEqual([])
    })

    it('a full flow: consent, code, tokens, userinfo, refresh', async () => {
      const auth = ready()
      const client = await createClient(auth)
      const { user, nonce, tokens } = await offlineTokens(auth, client)
      expect((await verifyIdToken(auth, tokens.id_token, client.clientId)).nonce).toBe(nonce)
      expect((await userinfo(auth, tokens.access_token)).body).toEqual({ sub: user.id, email: user.email, email_verified: false })
      const refreshed = await refreshGrant(auth, client, tokens.refresh_token)
      expect(refreshed.status).toBe(200)
      // Consent is remembered: the next authorization skips the page.
      const again = await authorizeCode(auth, user, client, { scope: 'openid email' })
      expect(again.code).toHaveLength(32)
    })

    it('twenty parallel redemptions of one code: one token response, and the replays revoke it', async () => {
      const auth = ready()
      const user = await newUser(auth)
      const client = await createClient(auth)
      const { code, verifier } = await authorizeCode(auth, user, client)
      const replies = await Promise.all(Array.from({ length: 20 }, () => redeem(auth, client, code, verifier)))
      const winner = expectOneWinner(replies)
      expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
      expect((await userinfo(auth, winner.body.access_token)).status).toBe(401)
    })

    it('twenty parallel uses of one refresh token: one new pair, and the family is revoked as reuse', async () => {
      const auth = ready()
      const client = await createClient(auth)
      const { tokens } = await offlineTokens(auth, client, 'openid offline_access')
      const replies = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(auth, client, tokens.refresh_token)))
      const winner = expectOneWinner(replies)
      expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
      expect((await userinfo(auth, winner.body.access_token)).status).toBe(401)
    })

    it('a password reset ends every token of the user; refreshes racing sign-out everywhere leave none alive', async () => {
      const auth = ready()
      const client = await createClient(auth)
      const first = await offlineTokens(auth, client)
      const { db } = await auth.$context
      await db.update({ model: 'user', where: { field: 'id', value: first.user.id }, update: { emailVerified: true } })
      await auth.handler(request('/api/auth/request-password-reset', { json: { email: first.user.email }, headers: { origin: BASE } }))
      const token = auth.mailbox.last('reset-password')?.token ?? ''
      expect((await auth.handler(request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token }, headers: { origin: BASE } }))).status).toBe(200)
      expect((await refreshGrant(auth, client, first.tokens.refresh_token)).body.error).toBe('invalid_grant')
      expect((await userinfo(auth, first.tokens.access_token)).status).toBe(401)

      // Five grants of one user, each refreshed while the user signs out everywhere.
      const user = await newUser(auth)
      const families = []
      for (let grant = 0; grant < 5; grant++) {
        const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'openid offline_access', prompt: 'consent' })
        families.push((await redeem(auth, client, code, verifier)).body as { refresh_token: string })
      }
      const [revoked, ...refreshes] = await Promise.all([
        auth.handler(authed('/api/auth/revoke-sessions', user.cookie, { method: 'POST' })),
        ...families.map((family) => refreshGrant(auth, client, family.refresh_token)),
      ])
      expect(revoked?.status).toBe(200)
      const rows = await tokenRows(auth, client.clientId)
      expect(rows.filter((row) => row.userId === user.id)).toEqual([])
      for (const reply of refreshes) if (reply.status === 200) expect((await userinfo(auth, reply.body.access_token)).status).toBe(401)
    })

    it('grants: listed and revoked per client; refresh tokens stop at refreshTokenMaxAge', async () => {
      const auth = ready()
      const client = await createClient(auth)
      const { user, tokens } = await offlineTokens(auth, client)
      const listed = (await (await auth.handler(authed('/api/auth/oauth2/grants', user.cookie))).json()) as Array<{ clientId: string; scopes: string[] }>
      expect(listed).toEqual([expect.objectContaining({ clientId: client.clientId, scopes: expect.arrayContaining(['offline_access']) })])
      expect((await auth.handler(authed('/api/auth/oauth2/grants/revoke', user.cookie, { json: { clientId: client.clientId } }))).status).toBe(200)
      expect((await tokenRows(auth, client.clientId)).filter((row) => row.userId === user.id)).toEqual([])
      expect((await refreshGrant(auth, client, tokens.refresh_token)).body.error).toBe('invalid_grant')

      let current = (await offlineTokens(auth, client)).tokens.refresh_token
      for (let week = 0; week < 4; week++) {
        auth.clock.advance(7 * 86_400_000 - 60_000)
        const reply = await refreshGrant(auth, client, current)
        expect(reply.status).toBe(200)
        current = reply.body.refresh_token
      }
      auth.clock.advance(3 * 86_400_000)
      expect((await refreshGrant(auth, client, current)).body.error).toBe('invalid_grant')
    })

    it('a sequential replay of a code revokes what it produced', async () => {
      const auth = ready()
      const user = await newUser(auth)
      const client = await createClient(auth)
      const { code, verifier } = await authorizeCode(auth, user, client)
      const first = await redeem(auth, client, code, verifier)
      expect((await redeem(auth, client, code, verifier)).body.error).toBe('invalid_grant')
      expect((await userinfo(auth, first.body.access_token)).status).toBe(401)
    })
  })
}
