import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, requestContext, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USER_INFO = 'https://id.vk.com/oauth2/user_info'
/** POST /oauth2/user_info with the email scope. */
const ANSWER = {
  user: {
    user_id: '1234567890',
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '79991234567',
    avatar: 'https://sun1-99.userapi.com/s/v1/ig2/ada.jpg?size=200x200&quality=96&crop=0,0,400,400&ava=1',
    email: 'ada@example.com',
    sex: 1,
    verified: false,
    birthday: '10.12.1815',
  },
}

describe('vk', () => {
  const provider = () => configure('vk', { clientId: '51234567', clientSecret: 'vk-secret' })

  it('uses PKCE S256 and asks for the address', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://id.vk.com/authorize')
    expect(query(url)).toMatchObject({ client_id: '51234567', redirect_uri: `${AUTH_BASE}/callback/vk`, scope: 'email', state: STATE, code_challenge_method: 'S256' })
    expect(provider().definition.supportsRefresh).toBe(false)
  })

  it('sends the callback device_id back with the code, and drops the unpublished ID Token', () => {
    const definition = provider().definition
    const params = new URLSearchParams({ code: 'c', state: STATE, device_id: 'dev-42', type: 'code_v2' })
    expect(definition.tokenRequestParams?.(requestContext(params))).toEqual({ device_id: 'dev-42', state: STATE })
    expect(definition.tokenRequestParams?.(requestContext())).toEqual({})
    expect(definition.normalizeTokenResponse?.({ access_token: 'a', id_token: 'x.y.z', user_id: 1 })).toEqual({ access_token: 'a', user_id: 1 })
  })

  it('reads user_info with a form POST; VK does not vouch for the address', async () => {
    const log = stubProvider({ [USER_INFO]: ANSWER })
    expect(await userInfo(provider())).toEqual({
      id: '1234567890',
      email: 'ada@example.com',
      emailVerified: false,
      name: 'Ada Lovelace',
      image: ANSWER.user.avatar,
      data: ANSWER.user,
    })
    expect(log.map((entry) => [entry.method, entry.url, entry.headers.get('content-type'), entry.body])).toEqual([
      ['POST', USER_INFO, 'application/x-www-form-urlencoded', `client_id=51234567&access_token=${ACCESS_TOKEN}`],
    ])
    stubProvider({ [USER_INFO]: { error: 'invalid_token', error_description: 'access_token is missing or invalid' } })
    expect(await userInfo(provider())).toBeNull()
  })
})
