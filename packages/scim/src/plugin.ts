/**
 * @module
 * `scim(options)`: SCIM 2.0 directory sync into organizations (docs/scim.md).
 * Okta, Microsoft Entra ID and other directories create, update, deactivate
 * and remove an organization's members, and its teams as groups, through
 * `/scim/v2`, each with a bearer token an owner or admin of the
 * organization generated. It needs the organization plugin (with teams, for
 * groups): a token belongs to an organization, whose members it manages.
 *
 * Rate limits per client address: generating a token (10 per minute), and
 * every `/scim/v2` path (300 per 10 s by default: a directory's servers are
 * shared by all its tenants, and an initial sync is a burst).
 */
import { definePlugin, withMetadata, type AuthContext } from '@gatehouse/core'
import { ScimErrors } from './errors.js'
import { resolveOptions, type ScimOptions } from './options.js'
import { SCIM_BASE_PATH } from './protocol/constants.js'
import { scimEndpoints } from './routes/index.js'
import { scimSchema } from './schema.js'
import { organizationAuthority } from './services/organization.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [organization({ teams: { enabled: true } }), scim({ groupRoles: { 'Acme Admins': 'admin' } })],
 * })
 * // An admin of the organization, from the settings page:
 * const { scimToken } = await auth.api.generateSCIMToken({ body: { organizationId }, headers })
 * // Okta or Entra ID: base URL https://app.example.com/api/auth/scim/v2, bearer token scimToken.
 */
export function scim(options: ScimOptions = {}) {
  const resolved = resolveOptions(options)
  return definePlugin({
    id: 'scim',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'scimClient', from: '@gatehouse/scim/client' },
    schema: scimSchema(resolved),
    // The directory's bearer tokens are SCIM tokens, and a token change is a credential change: never a bearer session token or an API key (docs/sessions.md#credentials-other-than-the-cookie).
    endpoints: withMetadata(scimEndpoints(resolved), { cookieOnly: true }),
    errors: ScimErrors,
    init: (ctx: AuthContext) => {
      if (!ctx.plugins.some((plugin) => plugin.id === 'organization')) {
        throw new Error('scim() needs the organization plugin: add organization() to plugins (docs/scim.md#set-up)')
      }
      const { rules } = organizationAuthority(ctx)
      if (resolved.groups && !rules.teams.enabled) {
        throw new Error('scim() serves groups as teams: pass organization({ teams: { enabled: true } }), or scim({ groups: false }) (docs/scim.md#set-up)')
      }
      if (resolved.defaultRole === rules.creatorRole) throw new Error(`scim() defaultRole cannot be the creator role "${rules.creatorRole}"`)
      for (const [group, roles] of resolved.groupRoles) {
        // A directory must never make an owner (docs/scim.md#owners).
        if (roles.includes(rules.creatorRole)) throw new Error(`scim() groupRoles["${group}"] gives the creator role "${rules.creatorRole}"`)
      }
    },
    rateLimit: [
      { pathMatcher: (path: string) => path === '/scim/generate-token', window: 60, max: 10 },
      { pathMatcher: (path: string) => path.startsWith(`${SCIM_BASE_PATH}/`), window: resolved.rateLimit.window, max: resolved.rateLimit.max },
    ],
  })
}
