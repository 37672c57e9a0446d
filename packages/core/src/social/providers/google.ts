/**
 * @module
 * Google (docs/social.md#google): OpenID Connect with static endpoints (no
 * discovery round trip). The profile is the validated ID Token's claims:
 * `sub`, `email`, `email_verified`, `name`, `picture`. The code-flow ID Token
 * comes straight from the token endpoint over TLS, so its claims are checked
 * (iss, aud, exp, nonce) without a signature check (OpenID Connect Core
 * §3.1.3.7); ID Tokens posted to `/sign-in/social` are verified against
 * Google's key set. `access_type=offline` asks for a refresh token, which
 * `get-access-token` needs.
 *
 * This file is the model for an OpenID Connect provider: give `issuer` and
 * `jwksUri`, and map claims in `getUserInfo`.
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const ISSUER = 'https://accounts.google.com'

/**
 * @example
 * socialProviders: { google: { clientId: process.env.GOOGLE_CLIENT_ID!, clientSecret: process.env.GOOGLE_CLIENT_SECRET! } }
 */
export const google = defineProvider({
  id: 'google',
  name: 'Google',
  create: (config) => ({
    id: 'google',
    name: 'Google',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    userInfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    issuer: ISSUER,
    jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
    // Sign-In-with-Google buttons mint tokens whose iss lacks the scheme.
    idTokenIssuers: [ISSUER, 'accounts.google.com'],
    tokenAuthMethod: 'client_secret_post',
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    authorizationParams: { access_type: 'offline', include_granted_scopes: 'true' },
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      // Without an ID Token (a refreshed token set, say) the UserInfo endpoint has the same claims.
      const claims = ctx.idTokenClaims ?? (tokens.accessToken ? await ctx.fetchJson('https://openidconnect.googleapis.com/v1/userinfo', tokens.accessToken) : null)
      if (!isRecord(claims) || typeof claims.sub !== 'string') return null
      return {
        id: claims.sub,
        email: stringField(claims.email, null),
        // Google sends true for Gmail and for Workspace addresses it has verified.
        emailVerified: claims.email_verified === true,
        name: stringField(claims.name, ''),
        image: stringField(claims.picture, null),
        data: claims,
      }
    },
  }),
})
