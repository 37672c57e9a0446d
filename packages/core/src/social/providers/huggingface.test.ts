import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USERINFO = 'https://huggingface.co/oauth/userinfo'
const ID_TOKEN_CLAIMS = { iss: 'https://huggingface.co', aud: 'hf-client', sub: '64a1f0c2e3b4d5a6f7e8d9c0', nonce: NONCE, exp: 1772370000, iat: 1772366400 }
/** GET /oauth/userinfo with openid, profile and email. */
const USERINFO_ANSWER = {
  sub: '64a1f0c2e3b4d5a6f7e8d9c0',
  name: 'Ada Lovelace',
  preferred_username: 'ada',
  profile: 'https://huggingface.co/ada',
  picture: 'https://cdn-avatars.huggingface.co/v1/production/uploads/ada.png',
  website: 'https://ada.example.com',
  email: 'ada@example.com',
  email_verified: true,
  isPro: false,
  orgs: [],
}

describe('huggingface', () => {
  const provider = () => configure('huggingface', { clientId: 'hf-client', clientSecret: 'hf-secret' })

  it('is OpenID Connect with PKCE and a nonce', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://huggingface.co/oauth/authorize')
    expect(query(url)).toMatchObject({
      client_id: 'hf-client',
      redirect_uri: `${AUTH_BASE}/callback/huggingface`,
      scope: 'openid profile email',
      state: STATE,
      nonce: NONCE,
      code_challenge_method: 'S256',
    })
    expect(provider().definition.issuer).toBe('https://huggingface.co')
  })

  it('merges the ID Token with UserInfo', async () => {
    const log = stubProvider({ [USERINFO]: USERINFO_ANSWER })
    expect(await userInfo(provider(), { idTokenClaims: ID_TOKEN_CLAIMS })).toEqual({
      id: USERINFO_ANSWER.sub,
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: USERINFO_ANSWER.picture,
      data: { ...ID_TOKEN_CLAIMS, ...USERINFO_ANSWER },
    })
    expect(log.map((entry) => [entry.url, entry.headers.get('authorization')])).toEqual([[USERINFO, `Bearer ${ACCESS_TOKEN}`]])
  })

  it('ignores a UserInfo answer about someone else, and unverified addresses stay unverified', async () => {
    stubProvider({ [USERINFO]: { ...USERINFO_ANSWER, sub: 'other', email: 'mallory@example.com' } })
    expect(await userInfo(provider(), { idTokenClaims: ID_TOKEN_CLAIMS })).toMatchObject({ id: ID_TOKEN_CLAIMS.sub, email: null })
    stubProvider({ [USERINFO]: { ...USERINFO_ANSWER, email_verified: false } })
    expect(await userInfo(provider(), { idTokenClaims: ID_TOKEN_CLAIMS })).toMatchObject({ email: 'ada@example.com', emailVerified: false })
  })
})
