import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

const USER = 'https://api.github.com/user'
const EMAILS = 'https://api.github.com/user/emails'
/** GET /user with read:user: the public email may be missing or differ from the primary one. */
const PROFILE = { id: 583231, login: 'octocat', name: 'The Octocat', email: null, avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4' }

describe('github', () => {
  const provider = () => configure('github', { clientId: 'Iv1.abc', clientSecret: 'gh-secret' })

  it('asks for read:user and user:email, with PKCE S256 and no nonce', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize')
    expect(query(url)).toMatchObject({
      response_type: 'code',
      client_id: 'Iv1.abc',
      redirect_uri: `${AUTH_BASE}/callback/github`,
      scope: 'read:user user:email',
      state: STATE,
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.has('nonce')).toBe(false)
    expect(provider().definition.tokenAuthMethod).toBe('client_secret_post')
  })

  it('takes the primary verified address from /user/emails, with a User-Agent', async () => {
    const log = stubProvider({
      [USER]: PROFILE,
      [EMAILS]: [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'octocat@github.com', primary: true, verified: true },
      ],
    })
    expect(await userInfo(provider())).toEqual({
      id: '583231',
      email: 'octocat@github.com',
      emailVerified: true,
      name: 'The Octocat',
      image: PROFILE.avatar_url,
      data: PROFILE,
    })
    expect(log.map((entry) => [entry.url, entry.headers.get('authorization'), entry.headers.get('user-agent')])).toEqual([
      [USER, `Bearer ${ACCESS_TOKEN}`, 'gatehouse'],
      [EMAILS, `Bearer ${ACCESS_TOKEN}`, 'gatehouse'],
    ])
  })

  it('an unverified primary address is unverified; without /user/emails the public address is unverified; login stands in for the name', async () => {
    stubProvider({ [USER]: PROFILE, [EMAILS]: [{ email: 'octocat@github.com', primary: true, verified: false }] })
    expect(await userInfo(provider())).toMatchObject({ email: 'octocat@github.com', emailVerified: false })

    stubProvider({ [USER]: { ...PROFILE, name: null, email: 'public@example.com' } })
    expect(await userInfo(provider())).toMatchObject({ email: 'public@example.com', emailVerified: false, name: 'octocat' })
  })

  it('gives no profile without an id, and fails when /user fails', async () => {
    stubProvider({ [USER]: { login: 'ghost' } })
    expect(await userInfo(provider())).toBeNull()
    stubProvider({})
    await expect(userInfo(provider())).rejects.toThrow()
  })
})
