import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USERS = 'https://api.kick.com/public/v1/users'
/** GET /public/v1/users with a user token: the token's own user. */
const ANSWER = {
  data: [{ email: 'ada@example.com', name: 'ada_streams', profile_picture: 'https://files.kick.com/images/user/123/profile_image/ada.webp', user_id: 123456 }],
  message: 'OK',
}

describe('kick', () => {
  const provider = () => configure('kick', { clientId: '01JKICKCLIENT', clientSecret: 'kick-secret' })

  it('uses PKCE S256 and body client credentials', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://id.kick.com/oauth/authorize')
    expect(query(url)).toMatchObject({ client_id: '01JKICKCLIENT', redirect_uri: `${AUTH_BASE}/callback/kick`, scope: 'user:read', state: STATE, code_challenge_method: 'S256' })
    expect(provider().definition.tokenAuthMethod).toBe('client_secret_post')
  })

  it('maps the first user of the answer; Kick does not vouch for the address', async () => {
    const log = stubProvider({ [USERS]: ANSWER })
    expect(await userInfo(provider())).toEqual({
      id: '123456',
      email: 'ada@example.com',
      emailVerified: false,
      name: 'ada_streams',
      image: ANSWER.data[0]?.profile_picture,
      data: ANSWER.data[0],
    })
    expect(log[0]?.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`)
    stubProvider({ [USERS]: { data: [], message: 'OK' } })
    expect(await userInfo(provider())).toBeNull()
  })
})
