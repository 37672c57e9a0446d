import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://oauth.reddit.com/api/v1/me'
/** GET /api/v1/me with the identity scope (trimmed: Reddit sends dozens of fields). */
const PROFILE = {
  id: '1w72',
  name: 'ada_lovelace',
  icon_img: 'https://styles.redditmedia.com/t5_2ab/styles/profileIcon_ada.png?width=256&amp;height=256&amp;crop=256:256,smart&amp;s=abc',
  snoovatar_img: '',
  has_verified_email: true,
  created_utc: 1136073600,
  verified: true,
  total_karma: 1843,
}

describe('reddit', () => {
  const provider = () => configure('reddit', { clientId: 'reddit-app', clientSecret: 'reddit-secret' })

  it('asks for a permanent grant, without PKCE, with Basic client authentication', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://www.reddit.com/api/v1/authorize')
    expect(query(url)).toEqual({
      response_type: 'code',
      client_id: 'reddit-app',
      redirect_uri: `${AUTH_BASE}/callback/reddit`,
      scope: 'identity',
      state: STATE,
      duration: 'permanent',
    })
    expect(provider().definition.tokenAuthMethod).toBe('client_secret_basic')
  })

  it('maps the profile with a User-Agent; Reddit shares no address', async () => {
    const log = stubProvider({ [ME]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: '1w72',
      email: null,
      emailVerified: false,
      name: 'ada_lovelace',
      image: 'https://styles.redditmedia.com/t5_2ab/styles/profileIcon_ada.png?width=256&height=256&crop=256:256,smart&s=abc',
      data: PROFILE,
    })
    expect(log[0]?.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`)
    expect(log[0]?.headers.get('user-agent')).toMatch(/^web:gatehouse/)
  })
})
