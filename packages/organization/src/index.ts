export { organization } from './plugin.js'
export { OrganizationErrors } from './errors.js'
export type { OrganizationErrorCode } from './errors.js'
export { organizationSchema } from './schema.js'
export { DEFAULT_INVITATION_EXPIRES_IN, DEFAULT_MEMBERSHIP_LIMIT, resolveOptions } from './options.js'
export type {
  Invitation,
  InvitationMail,
  InvitationStatus,
  Member,
  Organization,
  OrganizationOptions,
  ResolvedOptions,
  Team,
} from './options.js'
export * from './access/index.js'
