/**
 * @module
 * Microsoft Entra ID and personal Microsoft accounts (docs/social.md#microsoft):
 * OpenID Connect on the v2.0 endpoints of a tenant (`common` by default,
 * `organizations`, `consumers` or a tenant id). The profile is the ID Token.
 *
 * Microsoft's `email` claim is not verified: any tenant administrator can set
 * it to any address (the "nOAuth" pitfall). `emailVerified` is true only
 * with the `xms_edov` optional claim ("email domain owner verified"), which
 * the app registration must ask for; otherwise linking to an existing user
 * needs the provider to be trusted. The photo lives behind Microsoft Graph
 * as binary data, so `image` stays null.
 */
import { defineProvider, isRecord, stringField, type MicrosoftProviderConfig, type ProviderUserInfo } from '../../types/social.js'

const LOGIN = 'https://login.microsoftonline.com'
/** The tenant every personal Microsoft account belongs to. */
const CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad'

/**
 * The ID Token's `iss`. Multi-tenant endpoints issue tokens from the user's own
 * tenant, so the issuer is a template whose `{tenantid}` is the token's `tid`.
 */
export function microsoftIssuer(tenant: string): string {
  if (tenant === 'consumers') return `${LOGIN}/${CONSUMERS_TENANT}/v2.0`
  if (tenant === 'common' || tenant === 'organizations') return `${LOGIN}/{tenantid}/v2.0`
  return `${LOGIN}/${tenant}/v2.0`
}

/**
 * @example
 * socialProviders: { microsoft: { clientId: process.env.MICROSOFT_CLIENT_ID!, clientSecret: process.env.MICROSOFT_CLIENT_SECRET!, tenantId: 'common' } }
 */
export const microsoft = defineProvider<MicrosoftProviderConfig>({
  id: 'microsoft',
  name: 'Microsoft',
  create: (config) => {
    const tenant = config.tenantId ?? 'common'
    if (!/^[A-Za-z0-9.-]+$/.test(tenant)) throw new Error(`Gatehouse: socialProviders.microsoft.tenantId is not a tenant: ${tenant}`)
    const base = `${LOGIN}/${tenant}`
    return {
      id: 'microsoft',
      name: 'Microsoft',
      clientId: config.clientId,
      ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
      authorizationEndpoint: `${base}/oauth2/v2.0/authorize`,
      tokenEndpoint: `${base}/oauth2/v2.0/token`,
      userInfoEndpoint: 'https://graph.microsoft.com/oidc/userinfo',
      issuer: microsoftIssuer(tenant),
      jwksUri: `${base}/discovery/v2.0/keys`,
      tokenAuthMethod: 'client_secret_post',
      // offline_access for a refresh token.
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      pkce: true,
      async getUserInfo(_tokens, ctx): Promise<ProviderUserInfo | null> {
        const claims = ctx.idTokenClaims
        if (!isRecord(claims) || typeof claims.sub !== 'string' || claims.sub === '') return null
        // Work accounts without a mailbox have no `email` claim; their sign-in name is address-shaped.
        const username = stringField(claims.preferred_username, null)
        const email = stringField(claims.email, username !== null && username.includes('@') ? username : null)
        return {
          id: claims.sub,
          email,
          emailVerified: email !== null && email === claims.email && isTrue(claims.xms_edov),
          name: stringField(claims.name, username ?? ''),
          image: null,
          data: claims,
        }
      },
    }
  },
})

/** Optional claims arrive as `true`, `1` or `"1"` depending on the token version. */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}
