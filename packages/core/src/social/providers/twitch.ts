/**
 * @module
 * Twitch (docs/social.md#twitch): OpenID Connect. Twitch puts only `sub`
 * and `preferred_username` in its tokens unless asked: the `claims`
 * authorization parameter (OpenID Connect Core §5.5) asks for `email`,
 * `email_verified` and `picture` in both the ID Token and the UserInfo
 * answer. The address needs the `user:read:email` scope. Twitch does not
 * support PKCE; state and nonce protect the code. Its token answers carry
 * `scope` as a JSON array, which is joined into the standard string.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ISSUER = 'https://id.twitch.tv/oauth2'
const CLAIMS = { email: null, email_verified: null, picture: null, preferred_username: null }

/**
 * @example
 * socialProviders: { twitch: { clientId: process.env.TWITCH_CLIENT_ID!, clientSecret: process.env.TWITCH_CLIENT_SECRET! } }
 */
export const twitch = defineProvider({
  id: 'twitch',
  name: 'Twitch',
  create: (config) => ({
    id: 'twitch',
    name: 'Twitch',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: `${ISSUER}/authorize`,
    tokenEndpoint: `${ISSUER}/token`,
    userInfoEndpoint: `${ISSUER}/userinfo`,
    issuer: ISSUER,
    jwksUri: `${ISSUER}/keys`,
    // Twitch reads the client credentials from the body only.
    tokenAuthMethod: 'client_secret_post',
    scopes: ['openid', 'user:read:email'],
    pkce: false,
    authorizationParams: { claims: JSON.stringify({ id_token: CLAIMS, userinfo: CLAIMS }) },
    normalizeTokenResponse: (body) => (Array.isArray(body.scope) ? { ...body, scope: body.scope.join(' ') } : body),
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      const claims = ctx.idTokenClaims ?? (tokens.accessToken ? await ctx.fetchJson(`${ISSUER}/userinfo`, tokens.accessToken) : null)
      if (!isRecord(claims) || typeof claims.sub !== 'string' || claims.sub === '') return null
      const email = stringField(claims.email, null)
      return {
        id: claims.sub,
        email,
        emailVerified: email !== null && claims.email_verified === true,
        name: stringField(claims.preferred_username, ''),
        image: stringField(claims.picture, null),
        data: claims,
      }
    },
  }),
})
