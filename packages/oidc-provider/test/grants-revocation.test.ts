/**
 * Grants end with the account's credentials
 * (docs/oidc-provider.md#grants-end-with-the-accounts-credentials): when core
 * revokes a user's sessions for the account's security, every access and
 * refresh token of that user, for every client, ends in the same commit.
 */
import { describe, expect, it } from 'vitest'
import { authed, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { cookieHeader } from '../../core/test/accounts.js'
import {
  authorizeCode,
  authorizeQuery,
  basic,
  createClient,
  getAuthorize,
  location,
  newUser,
  offlineTokens,
  postForm,
  providerAuth,
  redeem,
  refreshGrant,
  tokenRows,
  userinfo,
  type ProviderAuth,
  type TestUser,
} from './fixtures.js'

const NEW_PASSWORD = 'a brand new passphrase'

async function verify(auth: ProviderAuth, user: TestUser) {
  const { db } = await auth.$context
  await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { emailVerified: true } })
}

const revocations: Record<string, (auth: ProviderAuth, user: TestUser) => Promise<void>> = {
  'a password reset': async (auth, user) => {
    await auth.handler(request('/api/auth/request-password-reset', { json: { email: user.email }, headers: { origin: BASE } }))
    const token = auth.mailbox.last('reset-password')?.token ?? ''
    const reset = await auth.handler(request('/api/auth/reset-password', { json: { newPassword: NEW_PASSWORD, token }, headers: { origin: BASE } }))
    expect(reset.status).toBe(200)
  },
  'change-password with revokeOtherSessions': async (auth, user) => {
    const changed = await auth.handler(
      authed('/api/auth/change-password', user.cookie, { json: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true } }),
    )
    expect(changed.status).toBe(200)
  },
  'revoke-sessions': async (auth, user) => {
    expect((await auth.handler(authed('/api/auth/revoke-sessions', user.cookie, { method: 'POST' }))).status).toBe(200)
  },
}

describe('grants end with the account’s credentials', () => {
  it.each(Object.keys(revocations))('%s ends every access and refresh token of the user, for every client', async (name) => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    const { user, tokens } = await offlineTokens(auth, notes)
    await verify(auth, user)
    const bystander = await offlineTokens(auth, notes)

    await revocations[name]!(auth, user)

    const refreshed = await refreshGrant(auth, notes, tokens.refresh_token)
    expect(refreshed.status).toBe(400)
    expect(refreshed.body.error).toBe('invalid_grant')
    expect((await userinfo(auth, tokens.access_token)).status).toBe(401)
    const left = await tokenRows(auth, notes.clientId)
    expect(left.map((row) => row.userId)).toEqual([bystander.user.id])
    expect((await refreshGrant(auth, notes, bystander.tokens.refresh_token)).status).toBe(200)
  })

  it('revoke-other-sessions signs out other devices but keeps the connected apps', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    const { user, tokens } = await offlineTokens(auth, notes)
    expect((await auth.handler(authed('/api/auth/revoke-other-sessions', user.cookie, { method: 'POST' }))).status).toBe(200)
    expect((await refreshGrant(auth, notes, tokens.refresh_token)).status).toBe(200)
  })
})

describe('codes end with the sign-in behind them', () => {
  it('a code issued before a password reset cannot be redeemed after it', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    const user = await newUser(auth)
    await verify(auth, user)
    const { code, verifier } = await authorizeCode(auth, user, notes)
    await revocations['a password reset']!(auth, user)
    const redeemed = await redeem(auth, notes, code, verifier)
    expect(redeemed.status).toBe(400)
    expect(redeemed.body).toMatchObject({ error: 'invalid_grant', error_description: 'The sign-in behind the code has ended' })
    expect(await tokenRows(auth, notes.clientId)).toEqual([])
  })

  it('a code from a session that was signed out elsewhere is refused; one from a live session works', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    const user = await newUser(auth)
    const stale = await authorizeCode(auth, user, notes)
    const fresh = await authorizeCode(auth, user, notes)
    expect((await redeem(auth, notes, fresh.code, fresh.verifier)).status).toBe(200)
    expect((await auth.handler(authed('/api/auth/sign-out', user.cookie, { method: 'POST' }))).status).toBe(200)
    expect((await redeem(auth, notes, stale.code, stale.verifier)).body.error).toBe('invalid_grant')
  })
})

describe('refresh tokens', () => {
  it('a family ends refreshTokenMaxAge after the authorization, however often it rotates', async () => {
    const day = 86_400_000
    const auth = providerAuth({ refreshTokenExpiresIn: 7 * 86_400, refreshTokenMaxAge: 30 * 86_400 })
    const notes = await createClient(auth)
    let { tokens } = await offlineTokens(auth, notes)
    const start = auth.clock.now().getTime()
    for (let refresh = 1; refresh <= 4; refresh++) {
      auth.clock.advance(6 * day)
      const reply = await refreshGrant(auth, notes, tokens.refresh_token)
      expect(reply.status).toBe(200)
      tokens = reply.body
      const rows = await tokenRows(auth, notes.clientId)
      const newest = rows.find((row) => row.rotatedAt === null) as { refreshTokenExpiresAt: Date }
      // Slides by 7 days, but never past day 30 of the grant.
      expect(newest.refreshTokenExpiresAt.getTime()).toBe(Math.min(start + (6 * refresh + 7) * day, start + 30 * day))
    }
    auth.clock.advance(6 * day)
    const ended = await refreshGrant(auth, notes, tokens.refresh_token)
    expect(ended.body).toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token has expired' })
  })

  it('the default absolute lifetime is 30 days', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    let { tokens } = await offlineTokens(auth, notes)
    for (let week = 1; week <= 4; week++) {
      auth.clock.advance(6.5 * 86_400_000)
      const reply = await refreshGrant(auth, notes, tokens.refresh_token)
      expect(reply.status).toBe(200)
      tokens = reply.body
    }
    auth.clock.advance(4 * 86_400_000)
    const expired = await refreshGrant(auth, notes, tokens.refresh_token)
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token has expired' })
  })

  it('go only to clients registered for the refresh_token grant; another client\'s refresh grant is unauthorized_client', async () => {
    const auth = providerAuth()
    const codeOnly = await createClient(auth, { grantTypes: ['authorization_code'] })
    const user = await newUser(auth)
    const { code, verifier } = await authorizeCode(auth, user, codeOnly, { scope: 'openid offline_access', prompt: 'consent' })
    const reply = await redeem(auth, codeOnly, code, verifier)
    expect(reply.status).toBe(200)
    expect(reply.body.refresh_token).toBeUndefined()
    expect(reply.body.scope).toBe('openid offline_access')
    const refused = await refreshGrant(auth, codeOnly, 'any-refresh-token')
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('unauthorized_client')
  })
})

describe('connected apps: GET /oauth2/grants and POST /oauth2/grants/revoke', () => {
  it('lists the clients holding a grant of the caller, with scopes and dates; revoking one ends its tokens and consent', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth, { name: 'Notes' })
    const wiki = await createClient(auth, { name: 'Wiki' })
    const { user, tokens } = await offlineTokens(auth, notes)
    auth.clock.advance(60_000)
    await authorizeCode(auth, user, wiki, { scope: 'openid email' })
    const other = await offlineTokens(auth, notes)

    const listed = await auth.handler(authed('/api/auth/oauth2/grants', user.cookie))
    expect(listed.status).toBe(200)
    const grants = (await listed.json()) as Array<Record<string, unknown>>
    expect(grants.map((grant) => grant.name)).toEqual(['Notes', 'Wiki'])
    expect(grants[0]).toMatchObject({ clientId: notes.clientId, icon: null, scopes: expect.arrayContaining(['openid', 'email', 'offline_access']) })
    expect(typeof grants[0]?.grantedAt).toBe('string')
    expect(typeof grants[0]?.lastUsedAt).toBe('string')
    // Wiki holds only the consent: its code was never redeemed.
    expect(grants[1]).toMatchObject({ clientId: wiki.clientId, scopes: ['openid', 'email'], lastUsedAt: null })

    const revoked = await auth.handler(authed('/api/auth/oauth2/grants/revoke', user.cookie, { json: { clientId: notes.clientId } }))
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toEqual({ status: true })
    expect((await refreshGrant(auth, notes, tokens.refresh_token)).body.error).toBe('invalid_grant')
    expect((await userinfo(auth, tokens.access_token)).status).toBe(401)
    // Another user's grant to the same client stands.
    expect((await refreshGrant(auth, notes, other.tokens.refresh_token)).status).toBe(200)
    const after = (await (await auth.handler(authed('/api/auth/oauth2/grants', user.cookie))).json()) as Array<{ clientId: string }>
    expect(after.map((grant) => grant.clientId)).toEqual([wiki.clientId])
    // The consent went too: the next authorization asks again.
    const again = await getAuthorize(auth, authorizeQuery(notes).query, user.cookie)
    expect(location(again).pathname).toBe('/consent')
  })

  it('revoking from another site is refused: 403, the grant stands', async () => {
    const auth = providerAuth()
    const notes = await createClient(auth)
    const { user, tokens } = await offlineTokens(auth, notes)
    const forged = await auth.handler(
      authed('/api/auth/oauth2/grants/revoke', user.cookie, { json: { clientId: notes.clientId }, headers: { origin: 'https://evil.example' } }),
    )
    expect(forged.status).toBe(403)
    expect((await refreshGrant(auth, notes, tokens.refresh_token)).status).toBe(200)
  })

  it('needs a session read from the store: none is 401, and a session revoked elsewhere is 401 despite its cache cookie', async () => {
    const auth = providerAuth({}, { session: { cookieCache: { enabled: true, maxAge: 300 } } })
    const notes = await createClient(auth)
    const { user } = await offlineTokens(auth, notes)
    expect((await auth.handler(authed('/api/auth/oauth2/grants', ''))).status).toBe(401)
    const cached = await auth.handler(authed('/api/auth/get-session', user.cookie))
    const withCache = cookieHeader(cached, user.cookie)
    const { db } = await auth.$context
    await db.deleteMany({ model: 'session', where: { field: 'userId', value: user.id } })
    expect((await auth.handler(authed('/api/auth/oauth2/grants', withCache))).status).toBe(401)
    const revoke = await auth.handler(authed('/api/auth/oauth2/grants/revoke', withCache, { json: { clientId: notes.clientId } }))
    expect(revoke.status).toBe(401)
    expect(await tokenRows(auth, notes.clientId)).toHaveLength(1)
  })
})

describe('introspection of tokens whose holders changed', () => {
  // The admin plugin's ban fields, declared as application fields: the provider reads them by name when present.
  const banFields = { user: { additionalFields: { banned: { type: 'boolean', required: false }, banExpires: { type: 'date', required: false } } } } as const

  it('answers active: false once the client is disabled, or the user is banned or deleted', async () => {
    // A first-party resource server, trusted to introspect every client's tokens.
    const rs = { clientId: 'resource-server', clientSecret: 'resource-server-secret-0123456789' }
    const auth = providerAuth({ trustedClients: [{ ...rs, name: 'API', redirectURLs: [], type: 'web' }] }, banFields)
    const notes = await createClient(auth)
    const introspect = async (token: string) =>
      (await postForm(auth, '/oauth2/introspect', { token }, { authorization: basic(rs.clientId, rs.clientSecret) })).body.active
    const { db } = await auth.$context

    const first = await offlineTokens(auth, notes)
    expect(await introspect(first.tokens.access_token)).toBe(true)
    await db.update({ model: 'oauthApplication', where: { field: 'clientId', value: notes.clientId }, update: { disabled: true } })
    expect(await introspect(first.tokens.access_token)).toBe(false)
    await db.update({ model: 'oauthApplication', where: { field: 'clientId', value: notes.clientId }, update: { disabled: false } })
    expect(await introspect(first.tokens.refresh_token)).toBe(true)

    // A ban that ends in the future hides the tokens; one that has ended does not.
    const until = new Date(auth.clock.now().getTime() + 60_000)
    await db.update({ model: 'user', where: { field: 'id', value: first.user.id }, update: { banned: true, banExpires: until } })
    expect(await introspect(first.tokens.access_token)).toBe(false)
    auth.clock.advance(120_000)
    expect(await introspect(first.tokens.access_token)).toBe(true)

    const second = await offlineTokens(auth, notes)
    await db.adapter.delete({ model: 'user', where: { field: 'id', value: second.user.id } })
    expect(await introspect(second.tokens.refresh_token)).toBe(false)
  })
})
