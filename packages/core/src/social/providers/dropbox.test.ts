import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const ACCOUNT = 'https://api.dropboxapi.com/2/users/get_current_account'
/** POST /2/users/get_current_account. */
const PROFILE = {
  account_id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
  name: { given_name: 'Ada', surname: 'Lovelace', familiar_name: 'Ada', display_name: 'Ada Lovelace', abbreviated_name: 'AL' },
  email: 'ada@example.com',
  email_verified: true,
  disabled: false,
  country: 'GB',
  locale: 'en',
  referral_link: 'https://db.tt/ZITNuhtI',
  is_paired: false,
  account_type: { '.tag': 'basic' },
  profile_photo_url: 'https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128',
}

describe('dropbox', () => {
  const provider = () => configure('dropbox', { clientId: 'dropbox-key', clientSecret: 'dropbox-secret' })

  it('asks for an offline token with PKCE', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://www.dropbox.com/oauth2/authorize')
    expect(query(url)).toMatchObject({
      client_id: 'dropbox-key',
      redirect_uri: `${AUTH_BASE}/callback/dropbox`,
      scope: 'account_info.read',
      state: STATE,
      code_challenge_method: 'S256',
      token_access_type: 'offline',
    })
  })

  it('reads the account with a POST and no body', async () => {
    const log = stubProvider({ [ACCOUNT]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: PROFILE.account_id,
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: PROFILE.profile_photo_url,
      data: PROFILE,
    })
    expect(log.map((entry) => [entry.method, entry.url, entry.headers.get('authorization'), entry.headers.get('content-type'), entry.body])).toEqual([
      ['POST', ACCOUNT, `Bearer ${ACCESS_TOKEN}`, null, ''],
    ])
  })

  it('keeps an unverified address unverified and fails on an error answer', async () => {
    stubProvider({ [ACCOUNT]: { ...PROFILE, email_verified: false } })
    expect(await userInfo(provider())).toMatchObject({ emailVerified: false })
    stubProvider({ [ACCOUNT]: new Response('{"error_summary":"invalid_access_token/"}', { status: 401 }) })
    await expect(userInfo(provider())).rejects.toThrow('Dropbox get_current_account answered 401')
  })
})
