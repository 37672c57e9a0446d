/**
 * @module
 * Kick (docs/social.md#kick): OAuth 2.1, so PKCE S256 is required; client
 * credentials go in the body. The profile is `GET /public/v1/users` (no id:
 * the token's own user), answered as `{ data: [{ user_id, name, email,
 * profile_picture }], message }`. Kick does not say whether the address is
 * verified, so `emailVerified` is false.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://api.kick.com/public/v1'

/**
 * @example
 * socialProviders: { kick: { clientId: process.env.KICK_CLIENT_ID!, clientSecret: process.env.KICK_CLIENT_SECRET! } }
 */
export const kick = defineProvider({
  id: 'kick',
  name: 'Kick',
  create: (config) => ({
    id: 'kick',
    name: 'Kick',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://id.kick.com/oauth/authorize',
    tokenEndpoint: 'https://id.kick.com/oauth/token',
    userInfoEndpoint: `${API}/users`,
    tokenAuthMethod: 'client_secret_post',
    scopes: ['user:read'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const answer = await ctx.fetchJson(`${API}/users`, tokens.accessToken)
      const first: unknown = isRecord(answer) && Array.isArray(answer.data) ? answer.data[0] : undefined
      if (!isRecord(first) || (typeof first.user_id !== 'number' && typeof first.user_id !== 'string')) return null
      return {
        id: String(first.user_id),
        email: stringField(first.email, null),
        emailVerified: false,
        name: stringField(first.name, ''),
        image: stringField(first.profile_picture, null),
        data: first,
      }
    },
  }),
})
