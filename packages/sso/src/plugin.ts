/**
 * @module
 * `sso(options)`: enterprise single sign-on, OpenID Connect and SAML 2.0
 * identity providers per organization, with verified domains (docs/sso.md).
 * It needs the organization plugin: a provider belongs to an organization,
 * whose access control (`sso` resource) says who manages it and whose
 * membership the people it signs in join; deleting the organization removes
 * its providers with the accounts and sessions they opened. No expired rows of its own: domain
 * verification tokens and sign-in states live in core's verification table,
 * which core's cleanup already sweeps.
 *
 * Rate limits per client address: starting a sign-in, registering (it may
 * fetch the IdP's discovery document) and the domain routes (verify-domain
 * makes a DNS lookup) are limited on top of core's defaults.
 */
import { definePlugin, type AuthContext, type DatabaseHookContext } from '@gatehouse/core'
import { SsoErrors } from './errors.js'
import { registerSsoOptions, resolveOptions, type SsoOptions } from './options.js'
import { ssoEndpoints } from './routes/index.js'
import { SamlErrors } from './saml/errors.js'
import { ssoSchema } from './schema.js'
import { organizationDeletionHook, providerSessionGuard } from './services/provider-removal.js'

const DOMAIN_PATHS = new Set(['/sso/request-domain-verification', '/sso/verify-domain'])

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [organization(), sso({ organizationProvisioning: { roleMapping: { 'idp-admins': 'admin' } } })],
 * })
 */
export function sso(options: SsoOptions = {}) {
  const resolved = resolveOptions(options)
  let initialized: AuthContext | undefined
  // A write made by a request carries its context; otherwise the one this plugin was started with.
  const authFor = (ctx: DatabaseHookContext): AuthContext | undefined => (ctx.endpoint as { auth?: AuthContext } | undefined)?.auth ?? initialized
  return definePlugin({
    id: 'sso',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'ssoClient', from: '@gatehouse/sso/client' },
    schema: ssoSchema,
    endpoints: ssoEndpoints(resolved),
    // The SAML logout routes' JSON errors are part of the plugin's catalogue too.
    errors: { ...SsoErrors, ...SamlErrors },
    init: (ctx: AuthContext) => {
      if (!ctx.plugins.some((plugin) => plugin.id === 'organization')) {
        throw new Error('sso() needs the organization plugin: add organization() to plugins (docs/sso.md#set-up)')
      }
      registerSsoOptions(ctx, resolved)
      initialized = ctx
    },
    databaseHooks: {
      // Deleting an organization removes its providers with their accounts and sessions first, in the same transaction.
      organization: { delete: { before: organizationDeletionHook(authFor) } },
      // A session names its provider only while the provider exists (a second step may come after its deletion).
      session: { create: { before: providerSessionGuard(authFor) } },
    },
    rateLimit: [
      // Each call starts a flow: state rows, and for OIDC a discovery fetch when not cached.
      { pathMatcher: (path: string) => path === '/sign-in/sso', window: 10, max: 5 },
      // Each registration may fetch the IdP's discovery document.
      { pathMatcher: (path: string) => path === '/sso/register', window: 60, max: 10 },
      // Each verify-domain makes a DNS lookup.
      { pathMatcher: (path: string) => DOMAIN_PATHS.has(path), window: 60, max: 10 },
    ],
  })
}
