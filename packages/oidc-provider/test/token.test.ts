/**
 * POST /oauth2/token with the authorization_code grant: client
 * authentication by each method (either secret method by default, the
 * registered one under strictClientAuthMethod, also at revoke and
 * introspect), PKCE by client kind, the code's binding to client, redirect
 * URI and PKCE verifier, single use with replay revocation, the reply's
 * fields and headers, and the ID Token's claims.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  authorizeCode,
  basic,
  CALLBACK,
  createClient,
  expectOneWinner,
  ISSUER,
  newUser,
  offlineTokens,
  pkce,
  postForm,
  providerAuth,
  redeem,
  type TestClient,
  tokenRequest,
  tokenRows,
  userinfo,
  verifyIdToken,
} from './fixtures.js'

async function setup(options: Parameters<typeof providerAuth>[0] = {}, settings: Parameters<typeof createClient>[1] = {}) {
  const auth = providerAuth(options)
  const user = await newUser(auth)
  const client = await createClient(auth, settings)
  return { auth, user, client }
}

/** The authorization_code form for an issued code, without client authentication. */
function codeGrant(issued: { code: string; verifier: string }): Record<string, string> {
  return { grant_type: 'authorization_code', code: issued.code, redirect_uri: CALLBACK, code_verifier: issued.verifier }
}

/** The client's credentials in the form body (client_secret_post), whatever method it registered. */
function inBody(client: TestClient): Record<string, string> {
  return { client_id: client.clientId, client_secret: client.clientSecret ?? '' }
}

const basicOf = (client: TestClient) => ({ authorization: basic(client.clientId, client.clientSecret ?? '') })

describe('authorization_code', () => {
  it('answers tokens with no-store headers, an ID Token with every claim, and stores only digests', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier, nonce } = await authorizeCode(auth, user, client)
    const reply = await redeem(auth, client, code, verifier)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.headers.get('pragma')).toBe('no-cache')
    expect(reply.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid profile email',
      id_token: expect.any(String),
    })
    expect(reply.body.refresh_token).toBeUndefined()

    const claims = await verifyIdToken(auth, reply.body.id_token, client.clientId)
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    expect(claims).toMatchObject({
      iss: ISSUER,
      sub: user.id,
      aud: client.clientId,
      azp: client.clientId,
      iat: now,
      exp: now + 3600,
      auth_time: now,
      nonce,
      at_hash: expect.any(String),
      email: user.email,
      email_verified: false,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    })

    const rows = await tokenRows(auth, client.clientId)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.accessToken).not.toBe(reply.body.access_token)
    expect(rows[0]).toMatchObject({ userId: user.id, scopes: 'openid profile email', refreshToken: null })
  })

  it('application claims join the ID Token but cannot replace its registered claims', async () => {
    const { auth, user, client } = await setup({ getAdditionalUserInfoClaims: () => ({ iss: 'https://evil.example.com', aud: 'other', sub: 'forged', role: 'editor' }) })
    const { code, verifier } = await authorizeCode(auth, user, client)
    const reply = await redeem(auth, client, code, verifier)
    const claims = await verifyIdToken(auth, reply.body.id_token, client.clientId)
    expect(claims).toMatchObject({ iss: ISSUER, aud: client.clientId, sub: user.id, role: 'editor' })
  })

  it.each(['ES256', 'EdDSA'] as const)('signs with %s when configured, at_hash matching the access token', async (algorithm) => {
    const { auth, user, client } = await setup({ signing: { algorithm } })
    const { code, verifier } = await authorizeCode(auth, user, client)
    const reply = await redeem(auth, client, code, verifier)
    const [header] = String(reply.body.id_token).split('.')
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: algorithm, typ: 'JWT', kid: expect.any(String) })
    const claims = await verifyIdToken(auth, reply.body.id_token, client.clientId)
    const hash = createHash(algorithm === 'EdDSA' ? 'sha512' : 'sha256').update(reply.body.access_token).digest()
    expect(claims.at_hash).toBe(hash.subarray(0, hash.length / 2).toString('base64url'))
  })

  it('issues a refresh token only with offline_access (granted through prompt=consent)', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'openid offline_access', prompt: 'consent' })
    const reply = await redeem(auth, client, code, verifier)
    expect(reply.body.refresh_token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(reply.body.scope).toBe('openid offline_access')
  })

  it('without openid there is no ID Token', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'email' })
    const reply = await redeem(auth, client, code, verifier)
    expect(reply.status).toBe(200)
    expect(reply.body.id_token).toBeUndefined()
  })

  it('accepts a JSON body too', async () => {
    const { auth, user, client } = await setup({}, { tokenEndpointAuthMethod: 'client_secret_post' })
    const { code, verifier } = await authorizeCode(auth, user, client)
    const response = await auth.handler(
      new Request(`${ISSUER}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }),
      }),
    )
    expect(response.status).toBe(200)
  })

  it('a code works once; a replay is invalid_grant and revokes the tokens it produced', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    const first = await redeem(auth, client, code, verifier)
    expect(first.status).toBe(200)
    expect((await userinfo(auth, first.body.access_token)).status).toBe(200)
    const replay = await redeem(auth, client, code, verifier)
    expect(replay.status).toBe(400)
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) })
    expect((await userinfo(auth, first.body.access_token)).status).toBe(401)
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
  })

  it('twenty parallel redemptions of one code: one token response, no 500, and the replays revoke it', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    const replies = await Promise.all(Array.from({ length: 20 }, () => redeem(auth, client, code, verifier)))
    const winner = expectOneWinner(replies)
    // RFC 6749 §4.1.2: the nineteen replays revoke what the code produced, the winner's tokens included.
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
    expect((await userinfo(auth, winner.body.access_token)).status).toBe(401)
  })

  it('an expired code is invalid_grant', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    auth.clock.advance(600_001)
    expect((await redeem(auth, client, code, verifier)).body.error).toBe('invalid_grant')
  })

  it('is bound to its client, its redirect_uri and its PKCE verifier; a failed check burns the code', async () => {
    const { auth, user, client } = await setup()
    const other = await createClient(auth)
    const a = await authorizeCode(auth, user, client)
    expect((await redeem(auth, other, a.code, a.verifier)).body.error).toBe('invalid_grant')
    expect((await redeem(auth, client, a.code, a.verifier)).body.error).toBe('invalid_grant')

    const b = await authorizeCode(auth, user, client)
    const wrongRedirect = await tokenRequest(auth, client, { grant_type: 'authorization_code', code: b.code, redirect_uri: `${CALLBACK}/`, code_verifier: b.verifier })
    expect(wrongRedirect.body.error).toBe('invalid_grant')

    const c = await authorizeCode(auth, user, client)
    expect((await redeem(auth, client, c.code, `${c.verifier}x`)).body.error).toBe('invalid_grant')
    const d = await authorizeCode(auth, user, client)
    const noVerifier = await tokenRequest(auth, client, { grant_type: 'authorization_code', code: d.code, redirect_uri: CALLBACK })
    expect(noVerifier.body.error).toBe('invalid_grant')
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
  })

  it('a plain challenge is checked when plain is allowed', async () => {
    const { auth, user, client } = await setup({ allowPlainCodeChallengeMethod: true })
    const verifier = 'p'.repeat(50)
    const ok = await authorizeCode(auth, user, client, { code_challenge: verifier, code_challenge_method: 'plain' })
    expect((await redeem(auth, client, ok.code, verifier)).status).toBe(200)
    const bad = await authorizeCode(auth, user, client, { code_challenge: verifier, code_challenge_method: 'plain' })
    expect((await redeem(auth, client, bad.code, 'q'.repeat(50))).body.error).toBe('invalid_grant')
  })

  it('requires code and redirect_uri; an unknown grant is unsupported_grant_type', async () => {
    const { auth, client } = await setup()
    expect((await tokenRequest(auth, client, { grant_type: 'authorization_code', redirect_uri: CALLBACK })).body).toEqual({
      error: 'invalid_request',
      error_description: 'code is required',
    })
    expect((await tokenRequest(auth, client, { grant_type: 'authorization_code', code: 'x' })).body.error).toBe('invalid_request')
    expect((await tokenRequest(auth, client, {})).body.error).toBe('invalid_request')
    const unknown = await tokenRequest(auth, client, { grant_type: 'password', username: 'a', password: 'b' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe('unsupported_grant_type')
    expect(unknown.headers.get('cache-control')).toBe('no-store')
  })
})

describe('client authentication', () => {
  it('a wrong secret over Basic is 401 invalid_client with WWW-Authenticate', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    const reply = await postForm(
      auth,
      '/oauth2/token',
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
      { authorization: basic(client.clientId, 'wrong') },
    )
    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
    expect(reply.headers.get('www-authenticate')).toMatch(/^Basic /)
    // The code is untouched: a client that failed to authenticate cannot burn it.
    expect((await redeem(auth, client, code, verifier)).status).toBe(200)
  })

  it('a confidential client without its secret is 401 invalid_client (no challenge when Basic was not tried)', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    const reply = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: client.clientId })
    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
    expect(reply.headers.get('www-authenticate')).toBeNull()
  })

  it('an unknown client is 401 invalid_client', async () => {
    const { auth } = await setup()
    const reply = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK }, { authorization: basic('ghost', 'secret') })
    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
  })

  it('by default a confidential client sends its secret either way, whatever method it registered (RFC 6749 §2.3.1)', async () => {
    const { auth, user, client: basicClient } = await setup()
    const a = await authorizeCode(auth, user, basicClient)
    const postForBasic = await postForm(auth, '/oauth2/token', { ...codeGrant(a), ...inBody(basicClient) })
    expect(postForBasic.status).toBe(200)

    const postClient = await createClient(auth, { tokenEndpointAuthMethod: 'client_secret_post' })
    const b = await authorizeCode(auth, user, postClient)
    const basicForPost = await postForm(auth, '/oauth2/token', codeGrant(b), basicOf(postClient))
    expect(basicForPost.status).toBe(200)
    // Still the client's own secret: another secret sent the other way is refused.
    const c = await authorizeCode(auth, user, basicClient)
    const wrong = await postForm(auth, '/oauth2/token', { ...codeGrant(c), client_id: basicClient.clientId, client_secret: postClient.clientSecret ?? '' })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toBe('invalid_client')
  })

  it('revoke and introspect take either method the same way', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const { tokens } = await offlineTokens(auth, client)
    const introspected = await postForm(auth, '/oauth2/introspect', { token: tokens.access_token, ...inBody(client) })
    expect(introspected.status).toBe(200)
    expect(introspected.body).toMatchObject({ active: true, client_id: client.clientId })
    const revoked = await postForm(auth, '/oauth2/revoke', { token: tokens.refresh_token, ...inBody(client) })
    expect(revoked.status).toBe(200)
    expect(await tokenRows(auth, client.clientId)).toHaveLength(0)
  })

  it('strictClientAuthMethod: a stored client must use the method it registered, at token, revoke and introspect', async () => {
    const { auth, user, client: basicClient } = await setup({ strictClientAuthMethod: true })
    const a = await authorizeCode(auth, user, basicClient)
    const postForBasic = await postForm(auth, '/oauth2/token', { ...codeGrant(a), ...inBody(basicClient) })
    expect(postForBasic.status).toBe(401)
    expect(postForBasic.body).toEqual({ error: 'invalid_client', error_description: 'This client authenticates with client_secret_basic' })
    expect(postForBasic.headers.get('www-authenticate')).toBeNull()
    // A refused client does not burn the code: the registered method still redeems it.
    expect((await postForm(auth, '/oauth2/token', codeGrant(a), basicOf(basicClient))).status).toBe(200)

    const postClient = await createClient(auth, { tokenEndpointAuthMethod: 'client_secret_post' })
    const b = await authorizeCode(auth, user, postClient)
    const basicForPost = await postForm(auth, '/oauth2/token', codeGrant(b), basicOf(postClient))
    expect(basicForPost.status).toBe(401)
    expect(basicForPost.body.error_description).toBe('This client authenticates with client_secret_post')
    expect(basicForPost.headers.get('www-authenticate')).toMatch(/^Basic /)
    const viaPost = await postForm(auth, '/oauth2/token', { ...codeGrant(b), ...inBody(postClient) })
    expect(viaPost.status).toBe(200)

    const token = String(viaPost.body.access_token)
    expect((await postForm(auth, '/oauth2/introspect', { token }, basicOf(postClient))).status).toBe(401)
    expect((await postForm(auth, '/oauth2/revoke', { token }, basicOf(postClient))).status).toBe(401)
    expect((await postForm(auth, '/oauth2/introspect', { token, ...inBody(postClient) })).body.active).toBe(true)
  })

  it('Basic and a body secret together are invalid_request', async () => {
    const { auth, client } = await setup()
    const reply = await postForm(
      auth,
      '/oauth2/token',
      { grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, client_secret: client.clientSecret ?? '' },
      { authorization: basic(client.clientId, client.clientSecret ?? '') },
    )
    expect(reply.body.error).toBe('invalid_request')
  })

  it('a public client authenticates with none and its PKCE verifier; a secret it does not have is refused either way', async () => {
    const { auth, user } = await setup()
    const spa = await createClient(auth, { type: 'public' })
    expect(spa.clientSecret).toBeUndefined()
    const { code, verifier } = await authorizeCode(auth, user, spa)
    const withSecret = await postForm(auth, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: spa.clientId,
      client_secret: 'made-up',
    })
    expect(withSecret.status).toBe(401)
    expect(withSecret.body.error_description).toBe('This client does not use a secret')
    const withBasic = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, {
      authorization: basic(spa.clientId, 'made-up'),
    })
    expect(withBasic.status).toBe(401)
    expect(withBasic.body.error_description).toBe('This client does not use a secret')
    const reply = await redeem(auth, spa, code, verifier)
    expect(reply.status).toBe(200)
  })

  it.each([false, true])('a trusted client authenticates with its configured secret by Basic or post (strictClientAuthMethod: %s)', async (strict) => {
    const secret = 't'.repeat(40)
    const auth = providerAuth({
      strictClientAuthMethod: strict,
      trustedClients: [{ clientId: 'console', clientSecret: secret, name: 'Console', redirectURLs: [CALLBACK], type: 'web', skipConsent: true }],
    })
    const user = await newUser(auth)
    const client = { clientId: 'console', clientSecret: secret }
    const a = await authorizeCode(auth, user, client)
    expect((await redeem(auth, client, a.code, a.verifier)).status).toBe(200)
    const b = await authorizeCode(auth, user, client)
    const viaPost = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code: b.code, redirect_uri: CALLBACK, code_verifier: b.verifier, client_id: 'console', client_secret: secret })
    expect(viaPost.status).toBe(200)
    const c = await authorizeCode(auth, user, client)
    expect((await redeem(auth, { clientId: 'console', clientSecret: 'nope' }, c.code, c.verifier)).status).toBe(401)
  })

  it('a disabled client cannot redeem', async () => {
    const { auth, user, client } = await setup()
    const { code, verifier } = await authorizeCode(auth, user, client)
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { disabled: true } } })
    expect((await redeem(auth, client, code, verifier)).status).toBe(401)
  })
})

describe('PKCE', () => {
  const noChallenge = { code_challenge: undefined, code_challenge_method: undefined }

  it('by default a confidential client may leave it out; a verifier for a code issued without a challenge is refused (RFC 9700 §4.8.2)', async () => {
    const { auth, user, client } = await setup()
    const a = await authorizeCode(auth, user, client, noChallenge)
    expect(await redeem(auth, client, a.code, pkce().verifier)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'code_verifier does not match the code challenge' },
    })
    const b = await authorizeCode(auth, user, client, noChallenge)
    const reply = await tokenRequest(auth, client, { grant_type: 'authorization_code', code: b.code, redirect_uri: CALLBACK })
    expect(reply.status).toBe(200)
    expect(reply.body.id_token).toEqual(expect.any(String))
  })

  it('a confidential client that sent a challenge is held to it: no downgrade at the token endpoint', async () => {
    const { auth, user, client } = await setup()
    const a = await authorizeCode(auth, user, client)
    const without = await tokenRequest(auth, client, { grant_type: 'authorization_code', code: a.code, redirect_uri: CALLBACK })
    expect(without.body).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code challenge' })
    const b = await authorizeCode(auth, user, client)
    expect((await redeem(auth, client, b.code, b.verifier)).status).toBe(200)
  })
})
