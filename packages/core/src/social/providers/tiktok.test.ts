import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, requestContext, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const INFO = 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name,username'
/** GET /v2/user/info/ with user.info.basic and user.info.profile. */
const ANSWER = {
  data: {
    user: {
      open_id: '-000Vf3Q9nYxQmh4gDfkZ8fDrzSE1s8pLAxN',
      union_id: 'c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1',
      avatar_url: 'https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/ada~c5_168x168.jpeg',
      display_name: 'Ada L.',
      username: 'ada.lovelace',
    },
  },
  error: { code: 'ok', message: '', log_id: '20260301120000' },
}

describe('tiktok', () => {
  const provider = () => configure('tiktok', { clientId: 'awtiktokclientkey', clientSecret: 'tiktok-secret' })

  it('names the client client_key and joins scopes with commas', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://www.tiktok.com/v2/auth/authorize/')
    expect(query(url)).toEqual({
      response_type: 'code',
      client_key: 'awtiktokclientkey',
      redirect_uri: `${AUTH_BASE}/callback/tiktok`,
      scope: 'user.info.basic,user.info.profile',
      state: STATE,
    })
    const definition = provider().definition
    expect(definition.tokenRequestParams?.(requestContext())).toEqual({ client_key: 'awtiktokclientkey' })
  })

  it('maps the profile; TikTok never shares an address', async () => {
    const log = stubProvider({ [INFO]: ANSWER })
    expect(await userInfo(provider())).toEqual({
      id: ANSWER.data.user.open_id,
      email: null,
      emailVerified: false,
      name: 'Ada L.',
      image: ANSWER.data.user.avatar_url,
      data: ANSWER.data.user,
    })
    expect(log.map((entry) => entry.headers.get('authorization'))).toEqual([`Bearer ${ACCESS_TOKEN}`])
    stubProvider({ [INFO]: { data: {}, error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.' } } })
    expect(await userInfo(provider())).toBeNull()
  })
})
