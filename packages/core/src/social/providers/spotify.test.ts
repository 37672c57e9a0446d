import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://api.spotify.com/v1/me'
/** GET /v1/me with user-read-email. */
const PROFILE = {
  country: 'GB',
  display_name: 'Ada',
  email: 'ada@example.com',
  explicit_content: { filter_enabled: false, filter_locked: false },
  external_urls: { spotify: 'https://open.spotify.com/user/ada-lovelace' },
  followers: { href: null, total: 3 },
  href: 'https://api.spotify.com/v1/users/ada-lovelace',
  id: 'ada-lovelace',
  images: [
    { url: 'https://i.scdn.co/image/ab6775700000ee85large', height: 300, width: 300 },
    { url: 'https://i.scdn.co/image/ab67757000003b82small', height: 64, width: 64 },
  ],
  product: 'premium',
  type: 'user',
  uri: 'spotify:user:ada-lovelace',
}

describe('spotify', () => {
  const provider = () => configure('spotify', { clientId: 'spotify-client', clientSecret: 'spotify-secret' })

  it('asks for user-read-email with PKCE; Basic client authentication', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://accounts.spotify.com/authorize')
    expect(query(url)).toMatchObject({ client_id: 'spotify-client', redirect_uri: `${AUTH_BASE}/callback/spotify`, scope: 'user-read-email', state: STATE, code_challenge_method: 'S256' })
    expect(provider().definition.tokenAuthMethod).toBe('client_secret_basic')
  })

  it('maps the profile with the widest image; Spotify does not verify addresses', async () => {
    const log = stubProvider({ [ME]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: 'ada-lovelace',
      email: 'ada@example.com',
      emailVerified: false,
      name: 'Ada',
      image: 'https://i.scdn.co/image/ab6775700000ee85large',
      data: PROFILE,
    })
    expect(log[0]?.headers.get('authorization')).toBe(`Bearer ${ACCESS_TOKEN}`)
  })

  it('uses the id when there is no display name or image', async () => {
    stubProvider({ [ME]: { ...PROFILE, display_name: null, images: [] } })
    expect(await userInfo(provider())).toMatchObject({ name: 'ada-lovelace', image: null })
  })
})
