import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://api.zoom.us/v2/users/me'
/** GET /v2/users/me with user:read:user (trimmed). */
const PROFILE = {
  id: 'KDcuGIm1QgePTO8WbOqwIQ',
  first_name: 'Ada',
  last_name: 'Lovelace',
  display_name: 'Ada Lovelace',
  email: 'ada@example.com',
  type: 1,
  pmi: 3542471135,
  timezone: 'Europe/London',
  verified: 1,
  dept: '',
  pic_url: 'https://lh3.googleusercontent.com/zoom/ada.jpg',
  account_id: 'q6gBJVO5TzexKYTb_I2rpg',
  status: 'active',
}

describe('zoom', () => {
  const provider = () => configure('zoom', { clientId: 'zoom-client', clientSecret: 'zoom-secret' })

  it('uses PKCE, the granular user scope and Basic client authentication', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://zoom.us/oauth/authorize')
    expect(query(url)).toMatchObject({ client_id: 'zoom-client', redirect_uri: `${AUTH_BASE}/callback/zoom`, scope: 'user:read:user', state: STATE, code_challenge_method: 'S256' })
    expect(provider().definition.tokenAuthMethod).toBe('client_secret_basic')
  })

  it('maps the profile; verified is 1 once the address is confirmed', async () => {
    const log = stubProvider({ [ME]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: PROFILE.id,
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: PROFILE.pic_url,
      data: PROFILE,
    })
    expect(log[0]?.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`)
    stubProvider({ [ME]: { ...PROFILE, verified: 0, display_name: '' } })
    expect(await userInfo(provider())).toMatchObject({ emailVerified: false, name: 'Ada Lovelace' })
  })

  it('lets an app on classic scopes replace the default', async () => {
    const url = await authorizeURL(configure('zoom', { clientId: 'zoom-client', clientSecret: 's', scopes: ['user:read'], disableDefaultScope: true }))
    expect(url.searchParams.get('scope')).toBe('user:read')
  })
})
