/**
 * @module
 * Dropbox (docs/social.md#dropbox): plain OAuth 2.0 with PKCE. The profile
 * is `POST /2/users/get_current_account` (an RPC call with no arguments):
 * `account_id`, `name.display_name`, `email`, `email_verified`,
 * `profile_photo_url`. `token_access_type=offline` asks for a refresh
 * token; Dropbox access tokens last four hours.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://api.dropboxapi.com'

/**
 * @example
 * socialProviders: { dropbox: { clientId: process.env.DROPBOX_CLIENT_ID!, clientSecret: process.env.DROPBOX_CLIENT_SECRET! } }
 */
export const dropbox = defineProvider({
  id: 'dropbox',
  name: 'Dropbox',
  create: (config) => ({
    id: 'dropbox',
    name: 'Dropbox',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://www.dropbox.com/oauth2/authorize',
    tokenEndpoint: `${API}/oauth2/token`,
    userInfoEndpoint: `${API}/2/users/get_current_account`,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['account_info.read'],
    pkce: true,
    authorizationParams: { token_access_type: 'offline' },
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      // Dropbox RPC endpoints take POST; "no arguments" is an empty body without a content type.
      const response = await ctx.fetch(`${API}/2/users/get_current_account`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/json' },
      })
      if (!response.ok) throw new Error(`Dropbox get_current_account answered ${response.status}`)
      const profile: unknown = await response.json()
      if (!isRecord(profile) || typeof profile.account_id !== 'string' || profile.account_id === '') return null
      const names = isRecord(profile.name) ? profile.name : {}
      const email = stringField(profile.email, null)
      return {
        id: profile.account_id,
        email,
        emailVerified: email !== null && profile.email_verified === true,
        name: stringField(names.display_name, ''),
        image: stringField(profile.profile_photo_url, null),
        data: profile,
      }
    },
  }),
})
