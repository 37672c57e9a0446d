/**
 * @module
 * TikTok Login Kit for Web (docs/social.md#tiktok): OAuth 2.0 where the
 * client id is called `client_key`, in the authorization URL and in the
 * token request, and scopes are joined with commas. The profile is
 * `GET /v2/user/info/` with the fields named: `open_id` (this app's id for
 * the person), `union_id`, `display_name`, `username`, `avatar_url`.
 *
 * TikTok never shares an email address: `email` is null, so a TikTok
 * sign-in cannot create a user (`email_not_found`); link TikTok to a
 * signed-in user instead (`POST /link-social`).
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://open.tiktokapis.com/v2'
const FIELDS = 'open_id,union_id,avatar_url,display_name,username'

/**
 * @example
 * socialProviders: { tiktok: { clientId: process.env.TIKTOK_CLIENT_KEY!, clientSecret: process.env.TIKTOK_CLIENT_SECRET! } }
 */
export const tiktok = defineProvider({
  id: 'tiktok',
  name: 'TikTok',
  create: (config) => ({
    id: 'tiktok',
    name: 'TikTok',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenEndpoint: `${API}/oauth/token/`,
    userInfoEndpoint: `${API}/user/info/?fields=${FIELDS}`,
    tokenAuthMethod: 'client_secret_post',
    // user.info.basic: open_id, display name, avatar; user.info.profile adds the username.
    scopes: ['user.info.basic', 'user.info.profile'],
    scopeSeparator: ',',
    // PKCE is part of TikTok's desktop and mobile flows only.
    pkce: false,
    customizeAuthorizationUrl(url) {
      url.searchParams.set('client_key', config.clientId)
      url.searchParams.delete('client_id')
    },
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const answer = await ctx.fetchJson(`${API}/user/info/?fields=${FIELDS}`, tokens.accessToken)
      const user = isRecord(answer) && isRecord(answer.data) && isRecord(answer.data.user) ? answer.data.user : null
      if (!user || typeof user.open_id !== 'string' || user.open_id === '') return null
      return {
        id: user.open_id,
        email: null,
        emailVerified: false,
        name: stringField(user.display_name, stringField(user.username, '')),
        image: stringField(user.avatar_url, null),
        data: user,
      }
    },
    // The token requests (code exchange and refresh) name the client `client_key` too.
    tokenRequestParams: () => ({ client_key: config.clientId }),
  }),
})
