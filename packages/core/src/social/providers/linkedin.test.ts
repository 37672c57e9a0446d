import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USERINFO = 'https://api.linkedin.com/v2/userinfo'
/** The ID Token of "Sign In with LinkedIn using OpenID Connect". */
const CLAIMS = {
  iss: 'https://www.linkedin.com/oauth',
  aud: '86abcdefgh1234',
  iat: 1772366400,
  exp: 1772370000,
  sub: 'hR9Z_4pKvI',
  name: 'Ada Lovelace',
  given_name: 'Ada',
  family_name: 'Lovelace',
  picture: 'https://media.licdn.com/dms/image/D4E03AQ/profile-displayphoto-shrink_100_100/0/ada',
  email: 'ada@example.com',
  email_verified: true,
  locale: 'en-US',
}

describe('linkedin', () => {
  const provider = () => configure('linkedin', { clientId: '86abcdefgh1234', clientSecret: 'linkedin-secret' })

  it('is OpenID Connect without PKCE, with body client credentials', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/oauth/v2/authorization')
    expect(query(url)).toEqual({
      response_type: 'code',
      client_id: '86abcdefgh1234',
      redirect_uri: `${AUTH_BASE}/callback/linkedin`,
      scope: 'openid profile email',
      state: STATE,
      nonce: NONCE,
    })
    expect(provider().definition).toMatchObject({ tokenAuthMethod: 'client_secret_post', issuer: 'https://www.linkedin.com/oauth' })
  })

  it('maps the ID Token without a UserInfo call when it has everything', async () => {
    const log = stubProvider({})
    expect(await userInfo(provider(), { idTokenClaims: CLAIMS })).toEqual({
      id: 'hR9Z_4pKvI',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: CLAIMS.picture,
      data: CLAIMS,
    })
    expect(log).toEqual([])
  })

  it('asks UserInfo when the token lacks the address, and keeps email_verified false as false', async () => {
    const { email: _missing, email_verified: _alsoMissing, ...claims } = CLAIMS
    const log = stubProvider({ [USERINFO]: { sub: CLAIMS.sub, email: 'ada@example.com', email_verified: false } })
    expect(await userInfo(provider(), { idTokenClaims: claims })).toMatchObject({ email: 'ada@example.com', emailVerified: false })
    expect(log.map((entry) => entry.url)).toEqual([USERINFO])
  })
})
