/**
 * @module
 * What `scim(options)` accepts, and its defaults (docs/scim.md#options):
 * groups served as teams, new members get `member`, no group grants a role,
 * ten tokens per organization that do not expire. Options are resolved once,
 * when the plugin is made; routes read the resolved object at run time.
 */

export interface ScimOptions {
  /**
   * Serve `/Groups` as the organization's teams (needs `organization({ teams: { enabled: true } })`).
   * Default true; false serves users only.
   */
  readonly groups?: boolean | undefined
  /** The role of a member the directory adds. Default `'member'`. */
  readonly defaultRole?: string | undefined
  /**
   * Roles given by group membership, by the group's `displayName` (exact):
   * `{ 'Acme Admins': 'admin' }`. A member of mapped groups holds their roles
   * together, one of none `defaultRole`; owners are never changed. Empty
   * (the default): groups never touch roles.
   */
  readonly groupRoles?: Readonly<Record<string, string | readonly string[]>> | undefined
  /** Most tokens one organization may hold. Default 10. */
  readonly maxTokensPerOrganization?: number | undefined
  /** Seconds a new token is valid. Default: no expiry (a directory cannot renew its token). */
  readonly tokenExpiresIn?: number | undefined
  /**
   * Requests per window and client address to each `/scim/v2/*` path. Default 300 per 10 s:
   * a directory's egress addresses are shared by all its tenants (docs/scim.md#rate-limits).
   */
  readonly rateLimit?: { readonly window?: number | undefined; readonly max?: number | undefined } | undefined
  /** Sent as `documentationUri` in ServiceProviderConfig. */
  readonly documentationUri?: string | undefined
}

export interface ResolvedScimOptions {
  readonly groups: boolean
  readonly defaultRole: string
  /** Group name → roles. */
  readonly groupRoles: ReadonlyMap<string, readonly string[]>
  readonly maxTokensPerOrganization: number
  readonly tokenExpiresIn: number | null
  readonly rateLimit: { readonly window: number; readonly max: number }
  readonly documentationUri: string | undefined
}

/**
 * @example
 * resolveOptions({ groupRoles: { Admins: 'admin' } }).groupRoles.get('Admins') // ['admin']
 */
export function resolveOptions(options: ScimOptions = {}): ResolvedScimOptions {
  const groupRoles = new Map<string, readonly string[]>()
  for (const [group, roles] of Object.entries(options.groupRoles ?? {})) {
    const list = (typeof roles === 'string' ? roles.split(',') : [...roles]).map((role) => role.trim()).filter(Boolean)
    if (list.length === 0) throw new Error(`scim() groupRoles["${group}"] names no role`)
    groupRoles.set(group, list)
  }
  const groups = options.groups ?? true
  if (!groups && groupRoles.size > 0) throw new Error('scim() groupRoles needs groups: a role is given by membership of a group')
  const maxTokens = options.maxTokensPerOrganization ?? 10
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new Error('scim() maxTokensPerOrganization must be a positive integer')
  const expiresIn = options.tokenExpiresIn ?? null
  if (expiresIn !== null && (!Number.isFinite(expiresIn) || expiresIn <= 0)) throw new Error('scim() tokenExpiresIn must be a positive number of seconds')
  return {
    groups,
    defaultRole: options.defaultRole?.trim() || 'member',
    groupRoles,
    maxTokensPerOrganization: maxTokens,
    tokenExpiresIn: expiresIn,
    rateLimit: { window: options.rateLimit?.window ?? 10, max: options.rateLimit?.max ?? 300 },
    documentationUri: options.documentationUri,
  }
}
