/**
 * @module
 * The role a person gets when an SSO sign-in adds them to the provider's
 * organization (docs/sso.md#just-in-time-provisioning): from
 * `organizationProvisioning.roleMapping`, a map of the IdP's group names to
 * roles (every matching group counts: a member may hold several roles) or a
 * function of the profile and provider; `defaultRole` (`member`) when
 * nothing matched. Group names are looked up as own keys only, so a group
 * called `constructor` or `__proto__` maps to nothing.
 */
import type { ResolvedSsoOptions } from '../options.js'
import type { SsoProfile, StoredProvider } from '../types.js'

/**
 * @example
 * await mappedRoles(resolveOptions({ organizationProvisioning: { roleMapping: { 'idp-admins': 'admin' } } }), profile, provider) // ['admin']
 */
export async function mappedRoles(options: ResolvedSsoOptions, profile: SsoProfile, provider: StoredProvider): Promise<string[]> {
  const { roleMapping, defaultRole } = options.organizationProvisioning
  let roles: readonly string[] = []
  if (typeof roleMapping === 'function') {
    const answered = await roleMapping(profile, provider)
    roles = answered === null || answered === undefined ? [] : typeof answered === 'string' ? [answered] : answered
  } else if (roleMapping) {
    roles = (profile.groups ?? []).flatMap((group) => (Object.hasOwn(roleMapping, group) ? [roleMapping[group] as string] : []))
  }
  const cleaned = [...new Set(roles.map((role) => role.trim()).filter((role) => role !== ''))]
  return cleaned.length > 0 ? cleaned : [defaultRole]
}
