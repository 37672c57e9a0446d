import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USERINFO = 'https://apis.roblox.com/oauth/v1/userinfo'
const CLAIMS = {
  sub: '1516563360',
  name: 'Ada',
  nickname: 'Ada',
  preferred_username: 'AdaLovelace1815',
  created_at: 1594146678,
  profile: 'https://www.roblox.com/users/1516563360/profile',
  nonce: NONCE,
  jti: 'ID.yMz8G7kXyoC9pVX4hLp4',
  nbf: 1772366400,
  exp: 1772370000,
  iat: 1772366400,
  iss: 'https://apis.roblox.com/oauth/',
  aud: '5116678345786744117',
}
const USERINFO_ANSWER = {
  sub: '1516563360',
  name: 'Ada',
  nickname: 'Ada',
  preferred_username: 'AdaLovelace1815',
  created_at: 1594146678,
  profile: 'https://www.roblox.com/users/1516563360/profile',
  picture: 'https://tr.rbxcdn.com/30DAY-AvatarHeadshot-ada/150/150/AvatarHeadshot/Png/noFilter',
}

describe('roblox', () => {
  const provider = () => configure('roblox', { clientId: '5116678345786744117', clientSecret: 'roblox-secret' })

  it('is OpenID Connect with PKCE and ES256 ID Tokens', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://apis.roblox.com/oauth/v1/authorize')
    expect(query(url)).toMatchObject({
      client_id: '5116678345786744117',
      redirect_uri: `${AUTH_BASE}/callback/roblox`,
      scope: 'openid profile',
      state: STATE,
      nonce: NONCE,
      code_challenge_method: 'S256',
    })
    expect(provider().definition).toMatchObject({ issuer: 'https://apis.roblox.com/oauth/', idTokenAlgorithms: ['ES256'] })
  })

  it('merges the ID Token with UserInfo for the picture; Roblox shares no address', async () => {
    const log = stubProvider({ [USERINFO]: USERINFO_ANSWER })
    expect(await userInfo(provider(), { idTokenClaims: CLAIMS })).toEqual({
      id: '1516563360',
      email: null,
      emailVerified: false,
      name: 'Ada',
      image: USERINFO_ANSWER.picture,
      data: { ...CLAIMS, ...USERINFO_ANSWER },
    })
    expect(log.map((entry) => entry.headers.get('authorization'))).toEqual([`Bearer ${ACCESS_TOKEN}`])
  })
})
