/**
 * @module
 * Spotify (docs/social.md#spotify): plain OAuth 2.0 with PKCE, client
 * credentials as HTTP Basic. The profile is `GET /v1/me`: `id`,
 * `display_name`, `email` (with `user-read-email`), `images` (widest first).
 * Spotify states that it does not verify the address, so `emailVerified` is false.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://api.spotify.com/v1'

/**
 * @example
 * socialProviders: { spotify: { clientId: process.env.SPOTIFY_CLIENT_ID!, clientSecret: process.env.SPOTIFY_CLIENT_SECRET! } }
 */
export const spotify = defineProvider({
  id: 'spotify',
  name: 'Spotify',
  create: (config) => ({
    id: 'spotify',
    name: 'Spotify',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://accounts.spotify.com/authorize',
    tokenEndpoint: 'https://accounts.spotify.com/api/token',
    userInfoEndpoint: `${API}/me`,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['user-read-email'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(`${API}/me`, tokens.accessToken)
      if (!isRecord(profile) || typeof profile.id !== 'string' || profile.id === '') return null
      const images = Array.isArray(profile.images) ? profile.images.filter(isRecord) : []
      return {
        id: profile.id,
        email: stringField(profile.email, null),
        emailVerified: false,
        name: stringField(profile.display_name, profile.id),
        image: stringField(images[0]?.url, null),
        data: profile,
      }
    },
  }),
})
