/**
 * @module
 * LinkedIn (docs/social.md#linkedin): "Sign In with LinkedIn using OpenID
 * Connect". The profile is the ID Token (`sub`, `name`, `given_name`,
 * `family_name`, `picture`, `email`, `email_verified`), with the UserInfo
 * answer filling in what a token lacks. LinkedIn reads client credentials
 * from the body and does not offer PKCE to web applications.
 */
import { defineProvider, isRecord, type ProviderUserInfo } from '../../types/social.js'
import { standardClaims } from './generic-oidc.js'

const ISSUER = 'https://www.linkedin.com/oauth'
const USERINFO = 'https://api.linkedin.com/v2/userinfo'

/**
 * @example
 * socialProviders: { linkedin: { clientId: process.env.LINKEDIN_CLIENT_ID!, clientSecret: process.env.LINKEDIN_CLIENT_SECRET! } }
 */
export const linkedin = defineProvider({
  id: 'linkedin',
  name: 'LinkedIn',
  create: (config) => ({
    id: 'linkedin',
    name: 'LinkedIn',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    userInfoEndpoint: USERINFO,
    issuer: ISSUER,
    jwksUri: 'https://www.linkedin.com/oauth/openid/jwks',
    tokenAuthMethod: 'client_secret_post',
    scopes: ['openid', 'profile', 'email'],
    pkce: false,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      let claims: Record<string, unknown> = { ...ctx.idTokenClaims }
      if (tokens.accessToken && (claims.sub === undefined || claims.email === undefined)) {
        const answer = await ctx.fetchJson(USERINFO, tokens.accessToken)
        // OpenID Connect Core §5.3.2: a UserInfo `sub` other than the ID Token's is not this person.
        if (isRecord(answer) && (claims.sub === undefined || answer.sub === claims.sub)) claims = { ...claims, ...answer }
      }
      return standardClaims(claims)
    },
  }),
})
