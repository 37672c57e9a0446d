import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

/** A Twitch ID Token asked for email, email_verified, picture and preferred_username through `claims`. */
const CLAIMS = {
  aud: 'twitch-client',
  exp: 1772370000,
  iat: 1772366400,
  iss: 'https://id.twitch.tv/oauth2',
  sub: '713936733',
  azp: 'twitch-client',
  nonce: NONCE,
  email: 'ada@example.com',
  email_verified: true,
  picture: 'https://static-cdn.jtvnw.net/jtv_user_pictures/ada-profile_image-300x300.png',
  preferred_username: 'AdaLovelace',
}

describe('twitch', () => {
  const provider = () => configure('twitch', { clientId: 'twitch-client', clientSecret: 'twitch-secret' })

  it('asks for the claims it needs, without PKCE', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://id.twitch.tv/oauth2/authorize')
    expect(query(url)).toEqual({
      response_type: 'code',
      client_id: 'twitch-client',
      redirect_uri: `${AUTH_BASE}/callback/twitch`,
      scope: 'openid user:read:email',
      state: STATE,
      nonce: NONCE,
      claims: JSON.stringify({
        id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
      }),
    })
  })

  it('joins the scope array of its token answers', () => {
    const normalize = provider().definition.normalizeTokenResponse
    expect(normalize?.({ access_token: 'a', token_type: 'bearer', scope: ['openid', 'user:read:email'] })).toEqual({
      access_token: 'a',
      token_type: 'bearer',
      scope: 'openid user:read:email',
    })
    expect(normalize?.({ access_token: 'a', scope: 'openid' })).toEqual({ access_token: 'a', scope: 'openid' })
  })

  it('maps the ID Token, and UserInfo when there is none', async () => {
    const log = stubProvider({ 'https://id.twitch.tv/oauth2/userinfo': { ...CLAIMS, email_verified: false } })
    const expected = { id: '713936733', email: 'ada@example.com', name: 'AdaLovelace', image: CLAIMS.picture }
    expect(await userInfo(provider(), { idTokenClaims: CLAIMS })).toEqual({ ...expected, emailVerified: true, data: CLAIMS })
    expect(log).toEqual([])
    expect(await userInfo(provider())).toMatchObject({ ...expected, emailVerified: false })
    expect(log.map((entry) => entry.headers.get('authorization'))).toEqual([`Bearer ${ACCESS_TOKEN}`])
  })
})
