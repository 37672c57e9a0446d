/**
 * @module
 * `oidcProvider(options)`: the plugin object (docs/oidc-provider.md). It adds
 * the client, token, consent and signing-key tables, the OAuth/OpenID
 * routes, the after-hook that resumes an authorization once the user has
 * signed in, the end of a user's grants when core revokes their credentials,
 * and rate limits on the endpoints a client could hammer.
 */
import { definePlugin, getJwks, withMetadata, type CredentialsRevoked } from '@gatehouse/core'
import { signingAlgorithms } from './keys/algorithms.js'
import { tokenCleanup } from './cleanup.js'
import { OidcErrors } from './errors.js'
import { resolveOidcOptions, type OidcProviderOptions } from './options.js'
import { oidcProviderEndpoints } from './routes/index.js'
import { oidcProviderSchema } from './schema.js'
import { endGrants } from './services/end-grants.js'
import { resumeAfterSignIn } from './services/resume-after-sign-in.js'

/**
 * The OAuth 2.0 authorization server and OpenID Provider (docs/oidc-provider.md).
 *
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://id.example.com',
 *   plugins: [oidcProvider({ loginPage: '/login', consentPage: '/consent' })],
 * })
 * const { clientId, clientSecret } = await auth.api.oauth2CreateClient({
 *   body: { name: 'Wiki', redirectURLs: ['https://wiki.example.com/callback'] },
 * })
 */
export function oidcProvider(options: OidcProviderOptions) {
  const resolved = resolveOidcOptions(options)
  return definePlugin({
    id: 'oidc-provider',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'oidcProviderClient', from: '@gatehouse/oidc-provider/client' },
    schema: oidcProviderSchema,
    // Its bearer tokens are access tokens, and its sessions are a person's in a browser: never a bearer session token or an API key (docs/sessions.md#credentials-other-than-the-cookie).
    // `getJwks` stays core's own object (public, reads no cookie): every signing plugin lists the same one route.
    endpoints: { ...withMetadata(oidcProviderEndpoints(resolved), { cookieOnly: true }), getJwks },
    // ID Tokens share the access tokens' lifetime; core keeps one key store for every plugin that signs.
    signingKeys: { algorithms: signingAlgorithms(resolved), tokenLifetime: resolved.accessTokenExpiresIn, rotationInterval: resolved.signing.rotationInterval },
    errors: OidcErrors,
    hooks: { after: [resumeAfterSignIn(resolved)] },
    cleanup: tokenCleanup,
    // Typed by core's event, so the plugin's inferred type names no module of this package.
    onCredentialsRevoked: (event: CredentialsRevoked) => endGrants(event),
    rateLimit: [
      // Relying parties redeem codes from one server address: generous, yet a bound on code and secret guessing.
      { pathMatcher: (path: string) => path === '/oauth2/token', window: 60, max: 120 },
      // Each registration writes a row: a few per minute is plenty for a person or a deployment script.
      { pathMatcher: (path: string) => path === '/oauth2/register', window: 60, max: 10 },
      // Resource servers introspect per request they serve.
      { pathMatcher: (path: string) => path === '/oauth2/introspect', window: 60, max: 600 },
    ],
  })
}
