/**
 * @module
 * Hugging Face (docs/social.md#hugging-face): OpenID Connect. The profile is
 * the ID Token merged with the UserInfo answer (`sub`, `name`,
 * `preferred_username`, `picture`, `email`, `email_verified`); the address
 * comes only with the `email` scope, which the application must enable.
 */
import { defineProvider, isRecord, type ProviderUserInfo } from '../../types/social.js'
import { standardClaims } from './generic-oidc.js'

const ISSUER = 'https://huggingface.co'

/**
 * @example
 * socialProviders: { huggingface: { clientId: process.env.HUGGINGFACE_CLIENT_ID!, clientSecret: process.env.HUGGINGFACE_CLIENT_SECRET! } }
 */
export const huggingface = defineProvider({
  id: 'huggingface',
  name: 'Hugging Face',
  create: (config) => ({
    id: 'huggingface',
    name: 'Hugging Face',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: `${ISSUER}/oauth/authorize`,
    tokenEndpoint: `${ISSUER}/oauth/token`,
    userInfoEndpoint: `${ISSUER}/oauth/userinfo`,
    issuer: ISSUER,
    jwksUri: `${ISSUER}/oauth/jwks`,
    tokenAuthMethod: 'client_secret_basic',
    scopes: ['openid', 'profile', 'email'],
    pkce: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      let claims: Record<string, unknown> = { ...ctx.idTokenClaims }
      if (tokens.accessToken) {
        const answer = await ctx.fetchJson(`${ISSUER}/oauth/userinfo`, tokens.accessToken)
        // OpenID Connect Core §5.3.2: a UserInfo `sub` other than the ID Token's is not this person.
        if (isRecord(answer) && (claims.sub === undefined || answer.sub === claims.sub)) claims = { ...claims, ...answer }
      }
      return standardClaims(claims)
    },
  }),
})
