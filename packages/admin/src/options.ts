/**
 * @module
 * What `admin(options)` accepts, and its defaults (docs/admin.md#options):
 * new users get the role `user`, the role `admin` is the admin role,
 * impersonation sessions last one hour and never target another admin.
 * Options are resolved once, when the plugin is made.
 */
import type { Role } from '@gatehouse/organization/access'
import { adminRole, defaultAdminRoles } from './access.js'

export interface AdminOptions {
  /** Role of every new user. Default "user". */
  readonly defaultRole?: string | undefined
  /** Roles whose holders are admins: they cannot be impersonated unless allowed. Default ["admin"]. */
  readonly adminRoles?: readonly string[] | undefined
  /** Users who are admins whatever their role: they hold every permission. Default none. */
  readonly adminUserIds?: readonly string[] | undefined
  /** The roles by name (built with `adminAc.newRole`). Default admin and user. */
  readonly roles?: Readonly<Record<string, Role>> | undefined
  /** Seconds an impersonation session lasts. Default 3600. */
  readonly impersonationSessionDuration?: number | undefined
  /** Whether an admin may impersonate another admin. Default false. */
  readonly allowImpersonatingAdmins?: boolean | undefined
  /** Stored when ban-user gives no reason. Default "No reason". */
  readonly defaultBanReason?: string | undefined
  /** The message a banned user's sign-in answers with. Default "You have been banned from this application". */
  readonly bannedUserMessage?: string | undefined
}

export interface ResolvedAdminOptions {
  readonly defaultRole: string
  readonly adminRoles: readonly string[]
  readonly adminUserIds: ReadonlySet<string>
  readonly roles: Readonly<Record<string, Role>>
  readonly impersonationSessionDuration: number
  readonly allowImpersonatingAdmins: boolean
  readonly defaultBanReason: string
  readonly bannedUserMessage: string
}

export const DEFAULT_IMPERSONATION_SESSION_DURATION = 3600
export const BANNED_USER_MESSAGE = 'You have been banned from this application'

/**
 * An admin role the application names but does not define grants what the
 * default admin role grants, so `adminRoles: ['owner']` works without a
 * `roles` map; a role that is defined keeps its own grants.
 *
 * @example
 * resolveAdminOptions({ adminRoles: ['admin', 'owner'] }).roles.owner // the admin role
 */
export function resolveAdminOptions(options: AdminOptions = {}): ResolvedAdminOptions {
  const adminRoles = options.adminRoles ?? ['admin']
  const roles: Record<string, Role> = { ...(options.roles ?? defaultAdminRoles) }
  for (const name of adminRoles) if (!Object.hasOwn(roles, name)) roles[name] = adminRole
  const duration = options.impersonationSessionDuration ?? DEFAULT_IMPERSONATION_SESSION_DURATION
  if (!Number.isInteger(duration) || duration <= 0) throw new Error('admin: impersonationSessionDuration must be a positive whole number of seconds')
  return {
    defaultRole: options.defaultRole ?? 'user',
    adminRoles,
    adminUserIds: new Set(options.adminUserIds ?? []),
    roles,
    impersonationSessionDuration: duration,
    allowImpersonatingAdmins: options.allowImpersonatingAdmins ?? false,
    defaultBanReason: options.defaultBanReason ?? 'No reason',
    bannedUserMessage: options.bannedUserMessage ?? BANNED_USER_MESSAGE,
  }
}
