/**
 * @module
 * VK ID (docs/social.md#vk): OAuth 2.1 with PKCE S256 required. The callback
 * carries a `device_id`, which the code exchange must send back (with the
 * state). The
 * profile is `POST https://id.vk.com/oauth2/user_info` (form body
 * `client_id`, `access_token`), answered as `{ user: { user_id,
 * first_name, last_name, avatar, email, ... } }`; the address needs the
 * `email` scope. VK does not say whether it is verified, so `emailVerified`
 * is false.
 *
 * Refreshing needs the same `device_id` again, which is not kept, so
 * `get-access-token` cannot refresh VK tokens (they last an hour).
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ID = 'https://id.vk.com'

/**
 * @example
 * socialProviders: { vk: { clientId: process.env.VK_CLIENT_ID!, clientSecret: process.env.VK_CLIENT_SECRET! } }
 */
export const vk = defineProvider({
  id: 'vk',
  name: 'VK ID',
  create: (config) => ({
    id: 'vk',
    name: 'VK ID',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: `${ID}/authorize`,
    tokenEndpoint: `${ID}/oauth2/auth`,
    userInfoEndpoint: `${ID}/oauth2/user_info`,
    tokenAuthMethod: 'client_secret_post',
    // vkid.personal_info (name, avatar) is always granted; email must be asked for.
    scopes: ['email'],
    pkce: true,
    supportsRefresh: false,
    // VK ID also returns an ID Token, under an issuer it does not publish; the profile comes from user_info.
    normalizeTokenResponse: ({ id_token: _unused, ...body }) => body,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const response = await ctx.fetch(`${ID}/oauth2/user_info`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ client_id: config.clientId, access_token: tokens.accessToken }),
      })
      if (!response.ok) throw new Error(`VK ID user_info answered ${response.status}`)
      const answer: unknown = await response.json()
      const user = isRecord(answer) && isRecord(answer.user) ? answer.user : null
      if (!user || (typeof user.user_id !== 'string' && typeof user.user_id !== 'number') || user.user_id === '') return null
      const name = [stringField(user.first_name, ''), stringField(user.last_name, '')].filter(Boolean).join(' ')
      return {
        id: String(user.user_id),
        email: stringField(user.email, null),
        emailVerified: false,
        name,
        image: stringField(user.avatar, null),
        data: user,
      }
    },
    // The callback's device_id goes back with the code, and VK wants the state echoed in the body
    // too; a refresh has no device_id to send (hence no refresh).
    tokenRequestParams: (ctx): Record<string, string> => {
      const deviceId = ctx.callbackParams?.get('device_id')
      const state = ctx.callbackParams?.get('state')
      return { ...(deviceId ? { device_id: deviceId } : {}), ...(state ? { state } : {}) }
    },
  }),
})
