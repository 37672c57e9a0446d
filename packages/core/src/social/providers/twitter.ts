/**
 * @module
 * X, formerly Twitter (docs/social.md#twitter): OAuth 2.0 with PKCE, as a
 * confidential client authenticating with HTTP Basic. The profile is
 * `GET /2/users/me` with `user.fields=profile_image_url,confirmed_email`.
 *
 * What is and is not available: X shares an address only through the
 * `confirmed_email` field, which needs the `users.email` scope, and that
 * scope is granted only to apps with "Request email from users" turned on
 * in the developer portal. When present the address is one X has confirmed,
 * so `emailVerified` is true. Without it there is no address at all and the
 * sign-in ends with `email_not_found` (linking to a signed-in user still works).
 * `offline.access` asks for a refresh token; access tokens last two hours.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://api.x.com/2'
const USER_FIELDS = 'profile_image_url,confirmed_email'

/**
 * @example
 * socialProviders: { twitter: { clientId: process.env.TWITTER_CLIENT_ID!, clientSecret: process.env.TWITTER_CLIENT_SECRET! } }
 */
export const twitter = defineProvider({
  id: 'twitter',
  name: 'X',
  create: (config) => ({
    id: 'twitter',
    name: 'X',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: `${API}/oauth2/token`,
    userInfoEndpoint: `${API}/users/me?user.fields=${USER_FIELDS}`,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['users.read', 'tweet.read', 'users.email', 'offline.access'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const answer = await ctx.fetchJson(`${API}/users/me?user.fields=${USER_FIELDS}`, tokens.accessToken)
      const profile = isRecord(answer) && isRecord(answer.data) ? answer.data : null
      if (!profile || typeof profile.id !== 'string' || profile.id === '') return null
      const email = stringField(profile.confirmed_email, null)
      return {
        id: profile.id,
        email,
        emailVerified: email !== null,
        name: stringField(profile.name, stringField(profile.username, '')),
        // X serves a 48px "_normal" variant by default; the unsuffixed name is the original upload.
        image: largeTwitterImage(stringField(profile.profile_image_url, null)),
        data: profile,
      }
    },
  }),
})

function largeTwitterImage(url: string | null): string | null {
  return url === null ? null : url.replace(/_normal(\.[a-z]+)$/i, '$1')
}
