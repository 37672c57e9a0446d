/**
 * @module
 * Any OpenID Connect provider, configured by its issuer
 * (docs/social.md#generic-providers): endpoints and key set come from the
 * discovery document (OpenID Connect Discovery 1.0), the code-flow ID Token is
 * checked for `iss`, `aud`, `exp` and the `nonce` sent in the authorization
 * request, and the profile is the ID Token's claims merged with the UserInfo
 * response when the provider has a UserInfo endpoint.
 */
import { isRecord, stringField, type GenericOidcConfig, type ProviderDefinition, type ProviderUserInfo } from '../../types/social.js'

/**
 * @example
 * socialProviders: { oidc: { type: 'oidc', issuer: 'https://id.example.com', clientId: '…', clientSecret: '…' } }
 */
export function genericOidcProvider(id: string, config: GenericOidcConfig): ProviderDefinition {
  return {
    id,
    name: config.name ?? id,
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    issuer: config.issuer,
    discovery: true,
    tokenAuthMethod: config.tokenAuthMethod ?? 'client_secret_basic',
    scopes: config.defaultScopes ?? ['openid', 'profile', 'email'],
    pkce: config.pkce ?? true,
    responseMode: config.responseMode ?? 'query',
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      let claims: Record<string, unknown> = { ...ctx.idTokenClaims }
      if (ctx.userInfoEndpoint && tokens.accessToken) {
        // With validated ID Token claims in hand, a failing UserInfo call only loses the extra claims.
        const answer = await ctx.fetchJson(ctx.userInfoEndpoint, tokens.accessToken).catch((error: unknown) => {
          if (ctx.idTokenClaims) return null
          throw error
        })
        // OpenID Connect Core §5.3.2: a UserInfo `sub` that differs from the ID Token's must not be used.
        if (isRecord(answer) && (claims.sub === undefined || answer.sub === claims.sub)) claims = { ...claims, ...answer }
      }
      if (config.mapClaims) return config.mapClaims(claims)
      return standardClaims(claims)
    },
  }
}

/** The standard claims (OpenID Connect Core §5.1) as user fields. */
export function standardClaims(claims: Readonly<Record<string, unknown>>): ProviderUserInfo | null {
  if (typeof claims.sub !== 'string' || claims.sub === '') return null
  const given = [stringField(claims.given_name, ''), stringField(claims.family_name, '')].filter(Boolean).join(' ')
  return {
    id: claims.sub,
    email: stringField(claims.email, null),
    emailVerified: claims.email_verified === true,
    name: stringField(claims.name, given || stringField(claims.preferred_username, '')),
    image: stringField(claims.picture, null),
    data: claims,
  }
}
