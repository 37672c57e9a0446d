/**
 * @module
 * Zoom (docs/social.md#zoom): plain OAuth 2.0 with PKCE, client credentials
 * as HTTP Basic. The profile is `GET /v2/users/me`: `id`, `display_name`
 * (or `first_name` and `last_name`), `email`, `pic_url` and `verified`
 * (1 once the account's address is confirmed). The scope is the granular
 * `user:read:user`; an app created with the older classic scopes lists
 * `user:read` in the Marketplace and passes `scopes` with `disableDefaultScope`.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ME = 'https://api.zoom.us/v2/users/me'

/**
 * @example
 * socialProviders: { zoom: { clientId: process.env.ZOOM_CLIENT_ID!, clientSecret: process.env.ZOOM_CLIENT_SECRET! } }
 */
export const zoom = defineProvider({
  id: 'zoom',
  name: 'Zoom',
  create: (config) => ({
    id: 'zoom',
    name: 'Zoom',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://zoom.us/oauth/authorize',
    tokenEndpoint: 'https://zoom.us/oauth/token',
    userInfoEndpoint: ME,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['user:read:user'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(ME, tokens.accessToken)
      if (!isRecord(profile) || typeof profile.id !== 'string' || profile.id === '') return null
      const email = stringField(profile.email, null)
      const fullName = [stringField(profile.first_name, ''), stringField(profile.last_name, '')].filter(Boolean).join(' ')
      return {
        id: profile.id,
        email,
        emailVerified: email !== null && profile.verified === 1,
        name: stringField(profile.display_name, fullName),
        image: stringField(profile.pic_url, null),
        data: profile,
      }
    },
  }),
})
