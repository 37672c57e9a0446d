/**
 * @module
 * Roblox (docs/social.md#roblox): OpenID Connect with PKCE; ID Tokens are
 * signed with ES256. The profile is the ID Token merged with the UserInfo
 * answer: `sub` (the user id), `name` (display name), `preferred_username`,
 * `nickname`, `picture`, `profile`, `created_at`. Roblox never shares an
 * email address, so a Roblox sign-in cannot create a user; link Roblox to a
 * signed-in user instead.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ISSUER = 'https://apis.roblox.com/oauth/'
const USERINFO = 'https://apis.roblox.com/oauth/v1/userinfo'

/**
 * @example
 * socialProviders: { roblox: { clientId: process.env.ROBLOX_CLIENT_ID!, clientSecret: process.env.ROBLOX_CLIENT_SECRET! } }
 */
export const roblox = defineProvider({
  id: 'roblox',
  name: 'Roblox',
  create: (config) => ({
    id: 'roblox',
    name: 'Roblox',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://apis.roblox.com/oauth/v1/authorize',
    tokenEndpoint: 'https://apis.roblox.com/oauth/v1/token',
    userInfoEndpoint: USERINFO,
    issuer: ISSUER,
    jwksUri: 'https://apis.roblox.com/oauth/v1/certs',
    idTokenAlgorithms: ['ES256'],
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['openid', 'profile'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      let claims: Record<string, unknown> = { ...ctx.idTokenClaims }
      if (tokens.accessToken) {
        const answer = await ctx.fetchJson(USERINFO, tokens.accessToken)
        // OpenID Connect Core §5.3.2: a UserInfo `sub` other than the ID Token's is not this person.
        if (isRecord(answer) && (claims.sub === undefined || answer.sub === claims.sub)) claims = { ...claims, ...answer }
      }
      if (typeof claims.sub !== 'string' || claims.sub === '') return null
      return {
        id: claims.sub,
        email: null,
        emailVerified: false,
        name: stringField(claims.name, stringField(claims.preferred_username, stringField(claims.nickname, ''))),
        image: stringField(claims.picture, null),
        data: claims,
      }
    },
  }),
})
