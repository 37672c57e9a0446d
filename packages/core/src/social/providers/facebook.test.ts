import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://graph.facebook.com/v23.0/me?fields=id,name,email,picture.width(256).height(256)'
/** GET /me?fields=id,name,email,picture.width(256).height(256). */
const PROFILE = {
  id: '10224356789012345',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  picture: {
    data: {
      height: 256,
      is_silhouette: false,
      url: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224356789012345&height=256&width=256&ext=1775000000&hash=AbC',
      width: 256,
    },
  },
}

describe('facebook', () => {
  const provider = () => configure('facebook', { clientId: '123456789012345', clientSecret: 'facebook-secret' })

  it('asks for email and public_profile on the versioned dialog', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://www.facebook.com/v23.0/dialog/oauth')
    expect(query(url)).toMatchObject({
      client_id: '123456789012345',
      redirect_uri: `${AUTH_BASE}/callback/facebook`,
      scope: 'email public_profile',
      state: STATE,
      code_challenge_method: 'S256',
    })
    expect(provider().definition.tokenEndpoint).toBe('https://graph.facebook.com/v23.0/oauth/access_token')
    expect(provider().definition.supportsRefresh).toBe(false)
  })

  it('maps the Graph profile; Facebook never vouches for the address', async () => {
    const log = stubProvider({ [ME]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: PROFILE.id,
      email: 'ada@example.com',
      emailVerified: false,
      name: 'Ada Lovelace',
      image: PROFILE.picture.data.url,
      data: PROFILE,
    })
    expect(log.map((entry) => [entry.url, entry.headers.get('authorization')])).toEqual([[ME, `Bearer ${ACCESS_TOKEN}`]])
  })

  it('drops the default silhouette and copes with no email permission', async () => {
    stubProvider({ [ME]: { id: PROFILE.id, name: 'Ada', picture: { data: { ...PROFILE.picture.data, is_silhouette: true } } } })
    expect(await userInfo(provider())).toMatchObject({ email: null, emailVerified: false, image: null })
  })
})
