import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email'
/** GET /2/users/me for an app with "Request email from users" on. */
const ANSWER = {
  data: {
    id: '2244994945',
    name: 'Ada Lovelace',
    username: 'ada',
    profile_image_url: 'https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg',
    confirmed_email: 'ada@example.com',
  },
}

describe('twitter (X)', () => {
  const provider = () => configure('twitter', { clientId: 'x-client', clientSecret: 'x-secret' })

  it('uses PKCE, asks for users.email and offline.access, and Basic client authentication', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://x.com/i/oauth2/authorize')
    expect(query(url)).toMatchObject({
      client_id: 'x-client',
      redirect_uri: `${AUTH_BASE}/callback/twitter`,
      scope: 'users.read tweet.read users.email offline.access',
      state: STATE,
      code_challenge_method: 'S256',
    })
    expect(provider().definition).toMatchObject({ tokenEndpoint: 'https://api.x.com/2/oauth2/token', tokenAuthMethod: 'client_secret_basic' })
  })

  it('maps /2/users/me; a confirmed_email is verified', async () => {
    const log = stubProvider({ [ME]: ANSWER })
    expect(await userInfo(provider())).toEqual({
      id: '2244994945',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: 'https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO.jpg',
      data: ANSWER.data,
    })
    expect(log.map((entry) => [entry.url, entry.headers.get('authorization')])).toEqual([[ME, `Bearer ${ACCESS_TOKEN}`]])
  })

  it('has no address when the app may not read it', async () => {
    const { confirmed_email: _absent, ...profile } = ANSWER.data
    stubProvider({ [ME]: { data: profile } })
    expect(await userInfo(provider())).toMatchObject({ email: null, emailVerified: false, name: 'Ada Lovelace' })
    stubProvider({ [ME]: { errors: [{ title: 'Unauthorized' }] } })
    expect(await userInfo(provider())).toBeNull()
  })
})
