/**
 * @module
 * What `organization(options)` accepts, and its defaults
 * (docs/organization.md#options): membership limit 100, invitations valid 48 hours, the
 * creator becomes owner, deleting the only owner of an organization with
 * other members is refused. Options are resolved once, when the plugin is made;
 * routes read the resolved object at run time.
 */
import type { MailContext, ModelHooks, User } from '@gatehouse/core'
import type { AccessControl, Role } from './access/access-control.js'
import { defaultAc, defaultRoles } from './access/statements.js'

type MaybePromise<T> = T | Promise<T>

/** The organization row as handlers and `api` see it (docs/organization.md#tables). */
export interface Organization {
  [field: string]: unknown
  id: string
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  createdAt: Date
}

export interface Member {
  [field: string]: unknown
  id: string
  organizationId: string
  userId: string
  role: string
  teamId: string | null
  createdAt: Date
}

export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'canceled'

export interface Invitation {
  [field: string]: unknown
  id: string
  organizationId: string
  email: string
  role: string
  status: InvitationStatus
  teamId: string | null
  inviterId: string
  expiresAt: Date
}

export interface Team {
  [field: string]: unknown
  id: string
  name: string
  organizationId: string
  createdAt: Date
  updatedAt: Date | null
}

export interface InvitationMail {
  readonly id: string
  readonly email: string
  readonly role: string
  readonly organization: Organization
  readonly invitation: Invitation
  readonly inviter: { readonly member: Member; readonly user: User }
}

/** What deleting the only owner of an organization with other members does (`onLastOwnerDeleted`). */
export type LastOwnerPolicy = 'refuse' | 'transfer' | 'delete-organization'

export interface OrganizationOptions {
  /** Whether a user may create organizations. Default true. */
  readonly allowUserToCreateOrganization?: boolean | ((user: User) => MaybePromise<boolean>) | undefined
  /** Most organizations one user may belong to when creating another; a function answers "limit reached?". Default unlimited. */
  readonly organizationLimit?: number | ((user: User) => MaybePromise<boolean>) | undefined
  /** Role of the user who creates an organization. Default "owner". */
  readonly creatorRole?: string | undefined
  /** Most members of one organization. Default 100. */
  readonly membershipLimit?: number | undefined
  /** Most pending invitations of one organization. Default 100. */
  readonly invitationLimit?: number | undefined
  /** Seconds an invitation stays valid. Default 172800 (48 h). */
  readonly invitationExpiresIn?: number | undefined
  /** Only a recipient with a verified email may see, accept or reject an invitation. Default true. */
  readonly requireEmailVerificationOnInvitation?: boolean | undefined
  /** Mails an invitation; invite-member calls it after storing the invitation. */
  readonly sendInvitationEmail?: ((data: InvitationMail, ctx: MailContext) => MaybePromise<void>) | undefined
  /** The statements roles are built from; run-time roles are checked against them. Default `defaultAc`. */
  readonly ac?: AccessControl | undefined
  /** The application's roles, by name (built with `ac.newRole`). Default owner, admin, member. */
  readonly roles?: Readonly<Record<string, Role>> | undefined
  readonly teams?: {
    readonly enabled?: boolean | undefined
    /** Create a team named after the organization when it is created. Default true. */
    readonly defaultTeam?: boolean | undefined
    /** Most teams per organization. Default unlimited. */
    readonly maximumTeams?: number | undefined
    /** Most members per team. Default unlimited. */
    readonly maximumMembersPerTeam?: number | undefined
    /** Allow removing an organization's last team. Default false. */
    readonly allowRemovingAllTeams?: boolean | undefined
  } | undefined
  /**
   * Deleting a user who is the only owner (creator role) of an organization
   * that has other members (docs/organization.md#deleting-an-owner):
   * `'refuse'` answers 400 naming the organizations, and nothing is deleted;
   * `'transfer'` gives the creator role to the longest-standing member
   * holding `admin`, else to the longest-standing member; `'delete-organization'`
   * deletes the organization with its members, invitations, teams and
   * run-time roles. An organization whose only member is the user is deleted
   * with them whatever this says. Default `'refuse'`.
   */
  readonly onLastOwnerDeleted?: LastOwnerPolicy | undefined
  /** Roles created at run time per organization, stored in the database. */
  readonly dynamicAccessControl?: {
    readonly enabled?: boolean | undefined
    /** Most run-time roles per organization. Default 20. */
    readonly maximumRolesPerOrganization?: number | undefined
  } | undefined
  /**
   * Before and after create, update and delete of each entity. A before-hook
   * may return `{ data }` to change what is written, or throw an `AuthError`
   * to veto; after-hooks run once the write has committed.
   */
  readonly hooks?: {
    readonly organization?: ModelHooks | undefined
    readonly member?: ModelHooks | undefined
    readonly invitation?: ModelHooks | undefined
    readonly team?: ModelHooks | undefined
  } | undefined
}

export interface ResolvedOptions {
  readonly allowUserToCreateOrganization: boolean | ((user: User) => MaybePromise<boolean>)
  readonly organizationLimit: number | ((user: User) => MaybePromise<boolean>)
  readonly creatorRole: string
  readonly membershipLimit: number
  readonly invitationLimit: number
  readonly invitationExpiresIn: number
  readonly requireEmailVerificationOnInvitation: boolean
  readonly sendInvitationEmail: OrganizationOptions['sendInvitationEmail']
  readonly ac: AccessControl
  readonly roles: Readonly<Record<string, Role>>
  readonly teams: {
    readonly enabled: boolean
    readonly defaultTeam: boolean
    readonly maximumTeams: number
    readonly maximumMembersPerTeam: number
    readonly allowRemovingAllTeams: boolean
  }
  readonly dynamicRoles: { readonly enabled: boolean; readonly maximumRolesPerOrganization: number }
  readonly onLastOwnerDeleted: LastOwnerPolicy
  readonly hooks: NonNullable<OrganizationOptions['hooks']>
}

export const DEFAULT_MEMBERSHIP_LIMIT = 100
export const DEFAULT_INVITATION_EXPIRES_IN = 172_800

/**
 * @example
 * resolveOptions({ membershipLimit: 20 }).invitationExpiresIn // 172800
 */
export function resolveOptions(options: OrganizationOptions = {}): ResolvedOptions {
  return {
    allowUserToCreateOrganization: options.allowUserToCreateOrganization ?? true,
    organizationLimit: options.organizationLimit ?? Number.POSITIVE_INFINITY,
    creatorRole: options.creatorRole ?? 'owner',
    membershipLimit: options.membershipLimit ?? DEFAULT_MEMBERSHIP_LIMIT,
    invitationLimit: options.invitationLimit ?? 100,
    invitationExpiresIn: options.invitationExpiresIn ?? DEFAULT_INVITATION_EXPIRES_IN,
    requireEmailVerificationOnInvitation: options.requireEmailVerificationOnInvitation ?? true,
    sendInvitationEmail: options.sendInvitationEmail,
    ac: options.ac ?? defaultAc,
    roles: options.roles ?? defaultRoles,
    teams: {
      enabled: options.teams?.enabled ?? false,
      defaultTeam: options.teams?.defaultTeam ?? true,
      maximumTeams: options.teams?.maximumTeams ?? Number.POSITIVE_INFINITY,
      maximumMembersPerTeam: options.teams?.maximumMembersPerTeam ?? Number.POSITIVE_INFINITY,
      allowRemovingAllTeams: options.teams?.allowRemovingAllTeams ?? false,
    },
    dynamicRoles: {
      enabled: options.dynamicAccessControl?.enabled ?? false,
      maximumRolesPerOrganization: options.dynamicAccessControl?.maximumRolesPerOrganization ?? 20,
    },
    onLastOwnerDeleted: options.onLastOwnerDeleted ?? 'refuse',
    hooks: options.hooks ?? {},
  }
}
