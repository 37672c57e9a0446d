/**
 * POST /oauth2/token with the refresh_token grant: rotation on every use, a
 * refreshed ID Token, scope narrowing, expiry, reuse of a rotated token
 * revoking the whole family, and twenty parallel uses yielding one new pair.
 */
import { describe, expect, it } from 'vitest'
import {
  createClient,
  expectOneWinner,
  offlineTokens,
  providerAuth,
  refreshGrant,
  tokenRequest,
  tokenRows,
  userinfo,
  verifyIdToken,
} from './fixtures.js'

describe('refresh_token', () => {
  it('rotates: a new pair, a new ID Token with the original auth_time and no nonce; the old access token keeps working', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { user, tokens } = await offlineTokens(auth, client)
    const firstClaims = await verifyIdToken(auth, tokens.id_token, client.clientId)
    auth.clock.advance(60_000)
    const reply = await refreshGrant(auth, client, tokens.refresh_token)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid email offline_access' })
    expect(reply.body.refresh_token).not.toBe(tokens.refresh_token)
    expect(reply.body.access_token).not.toBe(tokens.access_token)
    const claims = await verifyIdToken(auth, reply.body.id_token, client.clientId)
    expect(claims.sub).toBe(user.id)
    expect(claims.auth_time).toBe(firstClaims.auth_time)
    expect(claims.nonce).toBeUndefined()
    expect((await userinfo(auth, reply.body.access_token)).status).toBe(200)

    const rows = await tokenRows(auth, client.clientId)
    expect(rows).toHaveLength(2)
    expect(rows.filter((row) => row.rotatedAt !== null)).toHaveLength(1)
    expect(new Set(rows.map((row) => row.grantId)).size).toBe(1)
  })

  it('reusing a rotated token is invalid_grant and revokes the whole family', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const second = await refreshGrant(auth, client, tokens.refresh_token)
    const third = await refreshGrant(auth, client, second.body.refresh_token)
    expect(third.status).toBe(200)
    // No reuse interval by default: any reuse is a copy in the wrong hands.
    const reuse = await refreshGrant(auth, client, tokens.refresh_token)
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
    expect((await refreshGrant(auth, client, third.body.refresh_token)).body.error).toBe('invalid_grant')
    expect((await userinfo(auth, third.body.access_token)).status).toBe(401)
  })

  it('twenty parallel uses of one refresh token within a reuse interval: twenty pairs of the one family', async () => {
    const auth = providerAuth({ refreshTokenReuseInterval: 10 })
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const replies = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(auth, client, tokens.refresh_token)))
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(replies.map((reply) => reply.body.refresh_token)).size).toBe(20)
    const rows = await tokenRows(auth, client.clientId)
    expect(rows).toHaveLength(21)
    expect(new Set(rows.map((row) => row.grantId)).size).toBe(1)
  })

  it('twenty parallel uses of one refresh token by default (no reuse interval): one new pair, the rest invalid_grant', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const replies = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(auth, client, tokens.refresh_token)))
    expectOneWinner(replies)
    // The losers presented a spent token: that is reuse, so the family is gone, the winner's pair with it.
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
  })

  it('is bound to its client', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const other = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    expect((await refreshGrant(auth, other, tokens.refresh_token)).body.error).toBe('invalid_grant')
    expect((await refreshGrant(auth, client, tokens.refresh_token)).status).toBe(200)
  })

  it('may narrow the scope, never widen it', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const wider = await refreshGrant(auth, client, tokens.refresh_token, { scope: 'openid email profile offline_access' })
    expect(wider.body.error).toBe('invalid_scope')
    const narrower = await refreshGrant(auth, client, tokens.refresh_token, { scope: 'openid offline_access' })
    expect(narrower.status).toBe(200)
    expect(narrower.body.scope).toBe('openid offline_access')
  })

  it('expires after 7 days; needs refresh_token; an unknown token is invalid_grant', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    expect((await tokenRequest(auth, client, { grant_type: 'refresh_token' })).body).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token is required',
    })
    expect((await refreshGrant(auth, client, 'x'.repeat(32))).body.error).toBe('invalid_grant')
    auth.clock.advance(604_800_000)
    expect((await refreshGrant(auth, client, tokens.refresh_token)).body.error).toBe('invalid_grant')
  })
})

describe('access token lifetime', () => {
  it('userinfo refuses an access token after its 3600 s', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    auth.clock.advance(3_599_000)
    expect((await userinfo(auth, tokens.access_token)).status).toBe(200)
    auth.clock.advance(1000)
    const expired = await userinfo(auth, tokens.access_token)
    expect(expired.status).toBe(401)
    expect(expired.body.error).toBe('invalid_token')
  })
})
