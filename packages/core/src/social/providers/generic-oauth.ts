/**
 * @module
 * Any plain OAuth 2.0 provider, configured by its endpoints
 * (docs/social.md#generic-providers). OAuth 2.0 says nothing about who the
 * user is, so the application supplies the mapping: `getUserInfo`, or a
 * `userInfoEndpoint` whose JSON `mapProfile` turns into user fields.
 */
import { isRecord, type GenericOAuthConfig, type ProviderDefinition, type ProviderUserInfo } from '../../types/social.js'

/**
 * @example
 * socialProviders: {
 *   acme: {
 *     type: 'oauth2', clientId: '…', clientSecret: '…',
 *     authorizationEndpoint: 'https://acme.test/oauth/authorize', tokenEndpoint: 'https://acme.test/oauth/token',
 *     userInfoEndpoint: 'https://acme.test/api/me',
 *     mapProfile: (me) => ({ id: String(me.id), email: String(me.email), emailVerified: false, name: String(me.name), image: null, data: me }),
 *   },
 * }
 */
export function genericOAuthProvider(id: string, config: GenericOAuthConfig): ProviderDefinition {
  if (!config.getUserInfo && !(config.userInfoEndpoint && config.mapProfile)) {
    throw new Error(`Gatehouse: socialProviders.${id} needs \`getUserInfo\`, or \`userInfoEndpoint\` with \`mapProfile\`.`)
  }
  const { userInfoEndpoint, mapProfile, getUserInfo } = config
  return {
    id,
    name: config.name ?? id,
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: config.authorizationEndpoint,
    tokenEndpoint: config.tokenEndpoint,
    ...(userInfoEndpoint === undefined ? {} : { userInfoEndpoint }),
    tokenAuthMethod: config.tokenAuthMethod ?? 'client_secret_basic',
    scopes: config.defaultScopes ?? [],
    ...(config.scopeSeparator === undefined ? {} : { scopeSeparator: config.scopeSeparator }),
    pkce: config.pkce ?? true,
    supportsRefresh: config.supportsRefresh ?? true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (getUserInfo) return getUserInfo(tokens, ctx)
      if (!userInfoEndpoint || !mapProfile || !tokens.accessToken) return null
      const profile = await ctx.fetchJson(userInfoEndpoint, tokens.accessToken)
      return isRecord(profile) ? mapProfile(profile) : null
    },
  }
}
