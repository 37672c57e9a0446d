import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN, AUTH_BASE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'
import { discordAvatar } from './discord.js'

afterEach(() => vi.unstubAllGlobals())

const ME = 'https://discord.com/api/users/@me'
/** GET /users/@me with the identify and email scopes, a migrated username (discriminator "0"). */
const PROFILE = {
  id: '80351110224678912',
  username: 'nelly',
  discriminator: '0',
  global_name: 'Nelly',
  avatar: '8342729096ea3675442027381ff50dfe',
  bot: false,
  mfa_enabled: true,
  banner: null,
  accent_color: 16711680,
  locale: 'en-US',
  verified: true,
  email: 'nelly@discord.com',
  flags: 64,
  premium_type: 1,
  public_flags: 64,
}

describe('discord', () => {
  const provider = () => configure('discord', { clientId: '157730590492196864', clientSecret: 'discord-secret' })

  it('asks for identify and email, with PKCE S256', async () => {
    const url = await authorizeURL(provider())
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize')
    expect(query(url)).toMatchObject({
      response_type: 'code',
      client_id: '157730590492196864',
      redirect_uri: `${AUTH_BASE}/callback/discord`,
      scope: 'identify email',
      state: STATE,
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.has('nonce')).toBe(false)
  })

  it('maps the profile: display name, CDN avatar, verified flag', async () => {
    const log = stubProvider({ [ME]: PROFILE })
    expect(await userInfo(provider())).toEqual({
      id: PROFILE.id,
      email: 'nelly@discord.com',
      emailVerified: true,
      name: 'Nelly',
      image: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
      data: PROFILE,
    })
    expect(log.map((entry) => [entry.method, entry.url, entry.headers.get('authorization')])).toEqual([['GET', ME, `Bearer ${ACCESS_TOKEN}`]])
  })

  it('marks an unverified address as unverified and falls back to the username', async () => {
    stubProvider({ [ME]: { ...PROFILE, verified: false, global_name: null } })
    expect(await userInfo(provider())).toMatchObject({ emailVerified: false, name: 'nelly', email: 'nelly@discord.com' })
  })

  it('picks animated and default avatars', () => {
    expect(discordAvatar({ id: '1', avatar: 'a_1269e74af4df7417b13759eae50c83dc' })).toBe(
      'https://cdn.discordapp.com/avatars/1/a_1269e74af4df7417b13759eae50c83dc.gif',
    )
    // (80351110224678912 >> 22) % 6 = 0 for migrated names; discriminator % 5 for legacy ones.
    expect(discordAvatar({ id: PROFILE.id, avatar: null, discriminator: '0' })).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((BigInt(PROFILE.id) >> 22n) % 6n)}.png`,
    )
    expect(discordAvatar({ id: PROFILE.id, avatar: null, discriminator: '1337' })).toBe('https://cdn.discordapp.com/embed/avatars/2.png')
  })

  it('yields no profile when Discord sends no id, and fails on an error answer', async () => {
    stubProvider({ [ME]: { message: '401: Unauthorized', code: 0 } })
    expect(await userInfo(provider())).toBeNull()
    stubProvider({ [ME]: new Response('{"message":"401: Unauthorized"}', { status: 401 }) })
    await expect(userInfo(provider())).rejects.toThrow('provider answered 401')
  })
})
