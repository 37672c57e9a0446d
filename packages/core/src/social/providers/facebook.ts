/**
 * @module
 * Facebook (docs/social.md#facebook): plain OAuth 2.0 on the Graph API. The
 * profile is `GET /me?fields=id,name,email,picture`. Facebook does not say
 * whether the address is verified, so `emailVerified` is false: a Facebook
 * sign-in links to an existing user only when the application trusts the
 * provider (docs/social.md#linking-rules).
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

/** A Graph API version is served for at least two years; calls to an expired one go to the oldest live one. */
const VERSION = 'v23.0'
const GRAPH = `https://graph.facebook.com/${VERSION}`
const FIELDS = 'id,name,email,picture.width(256).height(256)'

/**
 * @example
 * socialProviders: { facebook: { clientId: process.env.FACEBOOK_CLIENT_ID!, clientSecret: process.env.FACEBOOK_CLIENT_SECRET! } }
 */
export const facebook = defineProvider({
  id: 'facebook',
  name: 'Facebook',
  create: (config) => ({
    id: 'facebook',
    name: 'Facebook',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: `https://www.facebook.com/${VERSION}/dialog/oauth`,
    tokenEndpoint: `${GRAPH}/oauth/access_token`,
    userInfoEndpoint: `${GRAPH}/me?fields=${FIELDS}`,
    tokenAuthMethod: 'client_secret_post',
    scopes: ['email', 'public_profile'],
    pkce: true,
    // Facebook's long-lived user tokens are re-issued by a token exchange, not a refresh_token grant.
    supportsRefresh: false,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(`${GRAPH}/me?fields=${FIELDS}`, tokens.accessToken)
      if (!isRecord(profile) || typeof profile.id !== 'string' || profile.id === '') return null
      const picture = isRecord(profile.picture) && isRecord(profile.picture.data) ? profile.picture.data : {}
      return {
        id: profile.id,
        email: stringField(profile.email, null),
        emailVerified: false,
        name: stringField(profile.name, ''),
        // The default silhouette is not the person's picture.
        image: picture.is_silhouette === true ? null : stringField(picture.url, null),
        data: profile,
      }
    },
  }),
})
