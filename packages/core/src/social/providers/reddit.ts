/**
 * @module
 * Reddit (docs/social.md#reddit): plain OAuth 2.0, client credentials as
 * HTTP Basic, no PKCE. `duration=permanent` asks for a refresh token (the
 * default, `temporary`, gives a one-hour token and none). The profile is
 * `GET https://oauth.reddit.com/api/v1/me` with the `identity` scope: `id`,
 * `name`, `icon_img`. Reddit never shares an email address (only whether
 * the account has a verified one), so a Reddit sign-in cannot create a
 * user; link Reddit to a signed-in user instead.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ME = 'https://oauth.reddit.com/api/v1/me'
/** Reddit throttles requests without a descriptive User-Agent. */
const HEADERS = { 'user-agent': 'web:gatehouse-social-sign-in:1 (by /u/gatehouse)' }

/**
 * @example
 * socialProviders: { reddit: { clientId: process.env.REDDIT_CLIENT_ID!, clientSecret: process.env.REDDIT_CLIENT_SECRET! } }
 */
export const reddit = defineProvider({
  id: 'reddit',
  name: 'Reddit',
  create: (config) => ({
    id: 'reddit',
    name: 'Reddit',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://www.reddit.com/api/v1/authorize',
    tokenEndpoint: 'https://www.reddit.com/api/v1/access_token',
    userInfoEndpoint: ME,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['identity'],
    pkce: false,
    authorizationParams: { duration: 'permanent' },
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(ME, tokens.accessToken, HEADERS)
      if (!isRecord(profile) || typeof profile.id !== 'string' || profile.id === '') return null
      const icon = stringField(profile.snoovatar_img, stringField(profile.icon_img, null))
      return {
        id: profile.id,
        email: null,
        emailVerified: false,
        name: stringField(profile.name, ''),
        // Reddit HTML-escapes the query string of image URLs.
        image: icon === null ? null : icon.replaceAll('&amp;', '&'),
        data: profile,
      }
    },
  }),
})
