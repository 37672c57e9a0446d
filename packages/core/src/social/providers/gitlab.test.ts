import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

/** GET /api/v4/user with read_user. */
const PROFILE = {
  id: 1234567,
  username: 'ada',
  name: 'Ada Lovelace',
  state: 'active',
  locked: false,
  avatar_url: 'https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png',
  web_url: 'https://gitlab.com/ada',
  created_at: '2019-04-01T10:00:00.000Z',
  public_email: '',
  email: 'ada@example.com',
  confirmed_at: '2019-04-01T10:05:00.000Z',
  two_factor_enabled: true,
  bot: false,
}

describe('gitlab', () => {
  it('talks to gitlab.com by default, with PKCE', async () => {
    const provider = configure('gitlab', { clientId: 'gitlab-app', clientSecret: 'gitlab-secret' })
    const url = await authorizeURL(provider)
    expect(url.origin + url.pathname).toBe('https://gitlab.com/oauth/authorize')
    expect(query(url)).toMatchObject({ client_id: 'gitlab-app', redirect_uri: `${AUTH_BASE}/callback/gitlab`, scope: 'read_user', state: STATE, code_challenge_method: 'S256' })
    expect(provider.definition.tokenEndpoint).toBe('https://gitlab.com/oauth/token')
  })

  it('uses a self-hosted instance under a path', async () => {
    const provider = configure('gitlab', { clientId: 'gitlab-app', clientSecret: 's', issuer: 'https://code.example.com/gitlab/' })
    expect(provider.definition).toMatchObject({
      authorizationEndpoint: 'https://code.example.com/gitlab/oauth/authorize',
      tokenEndpoint: 'https://code.example.com/gitlab/oauth/token',
      userInfoEndpoint: 'https://code.example.com/gitlab/api/v4/user',
    })
    const log = stubProvider({ 'https://code.example.com/gitlab/api/v4/user': PROFILE })
    expect(await userInfo(provider)).toEqual({
      id: '1234567',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: PROFILE.avatar_url,
      data: PROFILE,
    })
    expect(log.map((entry) => entry.headers.get('authorization'))).toEqual([`Bearer ${ACCESS_TOKEN}`])
  })

  it('treats an unconfirmed account as unverified, and a blocked one as no profile', async () => {
    const provider = configure('gitlab', { clientId: 'gitlab-app', clientSecret: 's' })
    stubProvider({ 'https://gitlab.com/api/v4/user': { ...PROFILE, confirmed_at: null } })
    expect(await userInfo(provider)).toMatchObject({ email: 'ada@example.com', emailVerified: false })
    stubProvider({ 'https://gitlab.com/api/v4/user': { ...PROFILE, state: 'blocked' } })
    expect(await userInfo(provider)).toBeNull()
  })
})
