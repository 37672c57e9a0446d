/**
 * @module
 * Discord (docs/social.md#discord): plain OAuth 2.0 with PKCE. The profile is
 * `GET /users/@me`: `id`, `username`, `global_name` (the display name),
 * `avatar` (a hash, turned into a CDN URL here), `email` (with the `email`
 * scope) and `verified`, Discord's flag for a confirmed address.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://discord.com/api'
const CDN = 'https://cdn.discordapp.com'

/**
 * @example
 * socialProviders: { discord: { clientId: process.env.DISCORD_CLIENT_ID!, clientSecret: process.env.DISCORD_CLIENT_SECRET! } }
 */
export const discord = defineProvider({
  id: 'discord',
  name: 'Discord',
  create: (config) => ({
    id: 'discord',
    name: 'Discord',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://discord.com/oauth2/authorize',
    tokenEndpoint: `${API}/oauth2/token`,
    userInfoEndpoint: `${API}/users/@me`,
    tokenAuthMethod: 'client_secret_basic',
    // identify for the profile, email for the address and its verified flag.
    scopes: ['identify', 'email'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(`${API}/users/@me`, tokens.accessToken)
      if (!isRecord(profile) || typeof profile.id !== 'string' || profile.id === '') return null
      const email = stringField(profile.email, null)
      return {
        id: profile.id,
        email,
        emailVerified: email !== null && profile.verified === true,
        name: stringField(profile.global_name, stringField(profile.username, '')),
        image: discordAvatar(profile),
        data: profile,
      }
    },
  }),
})

/**
 * The avatar URL (https://discord.com/developers/docs/reference#image-formatting):
 * animated hashes start with `a_`; without an avatar, one of Discord's default
 * ones, picked from the id for migrated usernames (discriminator "0") and
 * from the discriminator for legacy ones.
 */
export function discordAvatar(profile: Readonly<Record<string, unknown>>): string {
  const id = String(profile.id)
  const hash = stringField(profile.avatar, null)
  if (hash !== null) return `${CDN}/avatars/${id}/${hash}.${hash.startsWith('a_') ? 'gif' : 'png'}`
  const discriminator = stringField(profile.discriminator, '0')
  const index = discriminator === '0' && /^\d+$/.test(id) ? Number((BigInt(id) >> 22n) % 6n) : Number(discriminator) % 5
  return `${CDN}/embed/avatars/${Number.isFinite(index) ? index : 0}.png`
}
