/**
 * Limits on what a grant may carry and how long it lasts, from the review of
 * 2026-11-27: impersonation sessions authorize nothing (N2); a connected-app
 * revocation ends the codes and pending consents issued before it (N3); the
 * ID Token says how the user signed in (`amr`, `acr`, N8); a just-rotated
 * refresh token presented again by its client within the reuse interval gets
 * another pair, after it the family is revoked (N6); a refresh gets only the
 * scopes the client may still ask for (N9).
 */
import { definePlugin } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authed, cookieHeader } from '../../core/test/accounts.js'
import { digest } from '../src/services/secrets.js'
import {
  authorizeCode,
  authorizeQuery,
  CALLBACK,
  createClient,
  getAuthorize,
  getConsentRequest,
  ISSUER,
  location,
  newUser,
  offlineTokens,
  postConsent,
  providerAuth,
  providerAuthWithFields,
  redeem,
  refreshGrant,
  verifyIdToken,
  type ProviderAuth,
  type TestUser,
} from './fixtures.js'

async function sessionWhere(auth: ProviderAuth, user: TestUser) {
  const { db } = await auth.$context
  const [session] = await db.findMany<{ id: string }>({ model: 'session', where: { field: 'userId', value: user.id } })
  if (!session) throw new Error('no session')
  return { db, id: { field: 'id', value: session.id } as const }
}

describe('impersonation sessions authorize nothing (N2)', () => {
  /** The admin plugin's session field, declared here without the admin plugin: the provider reads the row generically. */
  const impersonationField = definePlugin({
    id: 'impersonation-field',
    schema: { session: { fields: { impersonatedBy: { type: 'string', required: false, input: false } } } },
  })

  async function impersonated() {
    const auth = providerAuthWithFields(impersonationField)
    const user = await newUser(auth)
    const admin = await newUser(auth, 'Admin')
    const { db, id } = await sessionWhere(auth, user)
    await db.update({ model: 'session', where: id, update: { impersonatedBy: admin.id } })
    return { auth, user }
  }

  it('authorize answers access_denied to a verified client, an error page for a self-registered one; nothing is recorded', async () => {
    const { auth, user } = await impersonated()
    const client = await createClient(auth)
    const { query, state } = authorizeQuery(client, { scope: 'openid offline_access', prompt: 'consent' })
    const response = await getAuthorize(auth, query, user.cookie)
    const target = location(response)
    expect(target.origin + target.pathname).toBe(CALLBACK)
    expect(Object.fromEntries(target.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'An impersonation session cannot authorize applications',
      state,
      iss: ISSUER,
    })
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { verified: false } } })
    const page = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    expect(page.status).toBe(400)
    expect(await page.json()).toEqual({ error: 'access_denied', error_description: 'An impersonation session cannot authorize applications' })
    const { db } = await auth.$context
    expect(await db.findMany({ model: 'oauthConsent' })).toEqual([])
    expect((await db.findMany<{ identifier: string }>({ model: 'verification' })).filter((row) => row.identifier.startsWith('oidc-'))).toEqual([])
  })

  it('a pending consent cannot be read or answered from an impersonation session, and is not burned by the attempt', async () => {
    const auth = providerAuthWithFields(impersonationField)
    const user = await newUser(auth)
    const client = await createClient(auth)
    const opened = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    const consentId = location(opened).searchParams.get('consent_id') ?? ''
    const cookie = cookieHeader(opened, user.cookie)
    // The session turns into an impersonation one (as if an admin held this browser).
    const { db, id } = await sessionWhere(auth, user)
    await db.update({ model: 'session', where: id, update: { impersonatedBy: 'admin-id' } })
    const read = await getConsentRequest(auth, cookie, consentId)
    expect([read.status, read.body.code]).toEqual([403, 'IMPERSONATION_NOT_ALLOWED'])
    const answered = await postConsent(auth, cookie, true, consentId)
    expect([answered.status, answered.body.code]).toEqual([403, 'IMPERSONATION_NOT_ALLOWED'])
    expect(await db.findMany({ model: 'oauthConsent' })).toEqual([])
    // The real user, back in their own session, still finds the request.
    await db.update({ model: 'session', where: id, update: { impersonatedBy: null } })
    expect((await postConsent(auth, cookie, true, consentId)).status).toBe(200)
  })
})

describe('a connected-app revocation ends what was issued before it (N3)', () => {
  function revoke(auth: ProviderAuth, user: TestUser, clientId: string) {
    return auth.handler(authed('/api/auth/oauth2/grants/revoke', user.cookie, { json: { clientId } }))
  }

  it('a code issued before the revoke is invalid_grant; one issued after it works', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const before = await authorizeCode(auth, user, client, { scope: 'openid offline_access', prompt: 'consent' })
    auth.clock.advance(1000)
    expect((await revoke(auth, user, client.clientId)).status).toBe(200)
    const late = await redeem(auth, client, before.code, before.verifier)
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant'])
    expect(await auth.api.oauth2ListGrants({ headers: new Headers({ cookie: user.cookie }) })).toEqual([])

    auth.clock.advance(1000)
    const after = await authorizeCode(auth, user, client, { scope: 'openid', prompt: 'consent' })
    expect((await redeem(auth, client, after.code, after.verifier)).status).toBe(200)
  })

  it('a code issued in the same millisecond as the revoke is refused too', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const before = await authorizeCode(auth, user, client)
    await revoke(auth, user, client.clientId)
    expect((await redeem(auth, client, before.code, before.verifier)).body.error).toBe('invalid_grant')
  })

  it('a client that skips consent: its code ends too', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth, { skipConsent: true })
    const before = await authorizeCode(auth, user, client)
    auth.clock.advance(1000)
    await revoke(auth, user, client.clientId)
    expect((await redeem(auth, client, before.code, before.verifier)).body.error).toBe('invalid_grant')
  })

  it('a pending consent from before the revoke can be neither shown nor accepted', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const opened = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    const consentId = location(opened).searchParams.get('consent_id') ?? ''
    const cookie = cookieHeader(opened, user.cookie)
    auth.clock.advance(1000)
    await revoke(auth, user, client.clientId)
    expect((await getConsentRequest(auth, cookie, consentId)).body.code).toBe('NO_PENDING_CONSENT')
    expect((await postConsent(auth, cookie, true, consentId)).body.code).toBe('NO_PENDING_CONSENT')
    const { db } = await auth.$context
    expect(await db.findMany({ model: 'oauthConsent', where: { field: 'consentGiven', value: true } })).toEqual([])
  })
})

describe('amr and acr in the ID Token (N8)', () => {
  async function setAmr(auth: ProviderAuth, user: TestUser, amr: string | null) {
    const { db, id } = await sessionWhere(auth, user)
    await db.update({ model: 'session', where: id, update: { amr } })
  }

  it('carries the session\'s amr as an array, kept for refreshed ID Tokens; none when the session has none', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const user = await newUser(auth)
    await setAmr(auth, user, 'pwd otp mfa')
    const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'openid offline_access', prompt: 'consent' })
    // The sign-in is what counts, as it was when the code was issued.
    await setAmr(auth, user, 'pwd')
    const reply = await redeem(auth, client, code, verifier)
    const claims = await verifyIdToken(auth, reply.body.id_token, client.clientId)
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa'])
    expect(claims.acr).toBeUndefined()
    const refreshed = await refreshGrant(auth, client, reply.body.refresh_token)
    expect((await verifyIdToken(auth, refreshed.body.id_token, client.clientId)).amr).toEqual(['pwd', 'otp', 'mfa'])

    const other = await newUser(auth)
    await setAmr(auth, other, null)
    const plain = await authorizeCode(auth, other, client)
    const plainReply = await redeem(auth, client, plain.code, plain.verifier)
    expect((await verifyIdToken(auth, plainReply.body.id_token, client.clientId)).amr).toBeUndefined()
  })

  it('acr: the first requested class the sign-in satisfies, else the strongest configured one it satisfies', async () => {
    const acrValues = [
      { value: 'urn:example:mfa', amr: ['mfa'] },
      { value: 'urn:example:pwd', amr: ['pwd'] },
    ]
    const auth = providerAuth({ acrValues })
    const discovery = await (await auth.handler(new Request(`${ISSUER}/.well-known/openid-configuration`))).json()
    expect(discovery.acr_values_supported).toEqual(['urn:example:mfa', 'urn:example:pwd'])
    const client = await createClient(auth)
    const acrOf = async (amr: string, acrValuesParam?: string) => {
      const user = await newUser(auth)
      await setAmr(auth, user, amr)
      const { code, verifier } = await authorizeCode(auth, user, client, acrValuesParam === undefined ? {} : { acr_values: acrValuesParam })
      const reply = await redeem(auth, client, code, verifier)
      return (await verifyIdToken(auth, reply.body.id_token, client.clientId)).acr
    }
    expect(await acrOf('pwd otp mfa')).toBe('urn:example:mfa')
    expect(await acrOf('pwd otp mfa', 'urn:example:pwd')).toBe('urn:example:pwd')
    expect(await acrOf('pwd', 'urn:example:mfa')).toBe('urn:example:pwd')
    expect(await acrOf('hwk')).toBeUndefined()
  })
})

describe('refresh token reuse interval (N6)', () => {
  it('the same client presenting the just-rotated token within 10 s gets another pair of the family', async () => {
    const auth = providerAuth({ refreshTokenReuseInterval: 10 })
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const first = await refreshGrant(auth, client, tokens.refresh_token)
    expect(first.status).toBe(200)
    auth.clock.advance(10_000)
    const second = await refreshGrant(auth, client, tokens.refresh_token)
    expect(second.status).toBe(200)
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token)
    // Both pairs live on, in one family.
    expect((await refreshGrant(auth, client, first.body.refresh_token)).status).toBe(200)
    expect((await refreshGrant(auth, client, second.body.refresh_token)).status).toBe(200)
  })

  it('another client presenting it is refused and changes nothing', async () => {
    const auth = providerAuth({ refreshTokenReuseInterval: 10 })
    const client = await createClient(auth)
    const other = await createClient(auth, { name: 'Other' })
    const { tokens } = await offlineTokens(auth, client)
    const first = await refreshGrant(auth, client, tokens.refresh_token)
    const foreign = await refreshGrant(auth, other, tokens.refresh_token)
    expect([foreign.status, foreign.body.error]).toEqual([400, 'invalid_grant'])
    expect((await refreshGrant(auth, client, first.body.refresh_token)).status).toBe(200)
  })

  it('after the interval, or once a later token of the family rotated, reuse revokes the family', async () => {
    const auth = providerAuth({ refreshTokenReuseInterval: 10 })
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const first = await refreshGrant(auth, client, tokens.refresh_token)
    auth.clock.advance(10_001)
    const late = await refreshGrant(auth, client, tokens.refresh_token)
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant'])
    expect((await refreshGrant(auth, client, first.body.refresh_token)).body.error).toBe('invalid_grant')

    const again = await offlineTokens(auth, client)
    const next = await refreshGrant(auth, client, again.tokens.refresh_token)
    auth.clock.advance(1000)
    // The client moved on: the next token rotated, so the first one is someone else's copy.
    const moved = await refreshGrant(auth, client, next.body.refresh_token)
    expect(moved.status).toBe(200)
    const copy = await refreshGrant(auth, client, again.tokens.refresh_token)
    expect(copy.body.error).toBe('invalid_grant')
    expect((await refreshGrant(auth, client, moved.body.refresh_token)).body.error).toBe('invalid_grant')
  })

  it('the default (0) revokes the family at the first reuse', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const first = await refreshGrant(auth, client, tokens.refresh_token)
    expect((await refreshGrant(auth, client, tokens.refresh_token)).body.error).toBe('invalid_grant')
    expect((await refreshGrant(auth, client, first.body.refresh_token)).body.error).toBe('invalid_grant')
  })
})

describe("a refresh gets only the scopes the client may still ask for (N9)", () => {
  it('narrowed client: the refreshed pair carries the intersection; asking for a withdrawn scope is invalid_scope', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client, 'openid email profile offline_access')
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { scope: 'openid offline_access' } } })
    const asked = await refreshGrant(auth, client, tokens.refresh_token, { scope: 'openid email offline_access' })
    expect([asked.status, asked.body.error]).toEqual([400, 'invalid_scope'])
    const narrowed = await refreshGrant(auth, client, tokens.refresh_token)
    expect(narrowed.status).toBe(200)
    expect(narrowed.body.scope).toBe('openid offline_access')
    const { db } = await auth.$context
    const row = await db.findOne<{ scopes: string }>({ model: 'oauthAccessToken', where: { field: 'refreshToken', value: await digest(narrowed.body.refresh_token) } })
    expect(row?.scopes).toBe('openid offline_access')
  })
})
