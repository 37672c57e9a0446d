export { organization } from './plugin.js'
export { OrganizationErrors } from './errors.js'
export type { OrganizationErrorCode } from './errors.js'
export { organizationSchema } from './schema.js'
// For plugins that suspend members (SCIM) or sign them in (SSO): a suspended member is refused like a non-member.
export { isSuspended } from './services/members.js'
export { DEFAULT_INVITATION_EXPIRES_IN, DEFAULT_MEMBERSHIP_LIMIT, resolveOptions } from './options.js'
export type {
  Invitation,
  InvitationMail,
  InvitationStatus,
  LastOwnerPolicy,
  Member,
  Organization,
  OrganizationOptions,
  ResolvedOptions,
  Team,
} from './options.js'
// Named by the plugin's endpoint types: exported so applications that emit declarations can name them too.
export type { StoredRole } from './services/roles.js'
export type { Authorization } from './services/authorize.js'
export type { ProvisionedMember } from './services/provision-member.js'
export { findOrganizationAuthority } from './authority.js'
export type { MemberRules, OrganizationAuthority } from './authority.js'
export type { ActiveFields } from './services/active-organization.js'
export type { OrgContext, SessionContext } from './services/caller.js'
export * from './access/index.js'
