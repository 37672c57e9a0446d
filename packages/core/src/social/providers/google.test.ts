import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USERINFO = 'https://openidconnect.googleapis.com/v1/userinfo'
const CLAIMS = {
  iss: 'https://accounts.google.com',
  aud: 'google-client.apps.googleusercontent.com',
  sub: '110169484474386276334',
  email: 'ada@gmail.com',
  email_verified: true,
  name: 'Ada Lovelace',
  picture: 'https://lh3.googleusercontent.com/a/photo',
}

describe('google', () => {
  const provider = () => configure('google', { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret' })

  it('asks for openid email profile with a nonce, PKCE S256 and offline access', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth')
    expect(query(url)).toMatchObject({
      client_id: 'google-client.apps.googleusercontent.com',
      redirect_uri: `${AUTH_BASE}/callback/google`,
      scope: 'openid email profile',
      state: STATE,
      nonce: NONCE,
      code_challenge_method: 'S256',
      access_type: 'offline',
    })
  })

  it('maps the validated ID Token claims without another request', async () => {
    const log = stubProvider({})
    expect(await userInfo(provider(), { idTokenClaims: CLAIMS })).toEqual({
      id: CLAIMS.sub,
      email: 'ada@gmail.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: CLAIMS.picture,
      data: CLAIMS,
    })
    expect(log).toEqual([])
  })

  it('without an ID Token reads the UserInfo endpoint; an unverified address stays unverified', async () => {
    const log = stubProvider({ [USERINFO]: { ...CLAIMS, email_verified: false } })
    expect(await userInfo(provider())).toMatchObject({ id: CLAIMS.sub, emailVerified: false })
    expect(log.map((entry) => [entry.url, entry.headers.get('authorization')])).toEqual([[USERINFO, `Bearer ${ACCESS_TOKEN}`]])
  })

  it('accepts ID Tokens from both of Google’s issuer spellings for ID-token sign-in', () => {
    expect(provider().definition.idTokenIssuers).toEqual(['https://accounts.google.com', 'accounts.google.com'])
    expect(provider().definition.jwksUri).toBe('https://www.googleapis.com/oauth2/v3/certs')
  })
})
