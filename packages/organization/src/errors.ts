/**
 * @module
 * The organization plugin's error catalogue (docs/organization.md#errors).
 * Every message the plugin can answer with lives here, with its status, so
 * the docs can list them and no throw site picks a status. A few statuses
 * clients already rely on are fixed (no active organization 400, not the
 * recipient 403, membership and team member limits 403, not authenticated
 * 401, user not found 401); otherwise a missing thing is 400 and a refused
 * action 403.
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(OrganizationErrors.ORGANIZATION_NOT_FOUND) // 400 "Organization not found"
 */
export const OrganizationErrors = defineErrors({
  // Session and caller: a request call needs a session
  NOT_AUTHENTICATED: { status: 401, message: 'Not authenticated' },
  USER_NOT_FOUND: { status: 401, message: 'User not found' },
  ORGANIZATION_ID_REQUIRED: { status: 400, message: 'Organization ID is required' },
  NO_ACTIVE_ORGANIZATION: { status: 400, message: 'No active organization' },
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: { status: 403, message: 'You are not a member of this organization' },
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: { status: 400, message: 'User is not a member of the organization' },

  // Organizations
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: { status: 403, message: 'You are not allowed to create a new organization' },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: {
    status: 403,
    message: 'You have reached the maximum number of organizations',
  },
  ORGANIZATION_ALREADY_EXISTS: { status: 400, message: 'Organization already exists' },
  SLUG_IS_TAKEN: { status: 400, message: 'slug is taken' },
  ORGANIZATION_NOT_FOUND: { status: 400, message: 'Organization not found' },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: { status: 403, message: 'You are not allowed to update this organization' },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: { status: 403, message: 'You are not allowed to delete this organization' },

  // Members
  MEMBER_NOT_FOUND: { status: 400, message: 'Member not found' },
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: { status: 400, message: 'User is already a member of this organization' },
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: { status: 403, message: 'Organization membership limit reached' },
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: {
    status: 400,
    message: 'You cannot leave the organization as the only owner',
  },
  YOU_CANNOT_REMOVE_THE_LAST_OWNER: { status: 400, message: 'You cannot remove the last owner of the organization' },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: { status: 403, message: 'You are not allowed to delete this member' },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: { status: 403, message: 'You are not allowed to update this member' },
  YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE: { status: 403, message: 'You are not allowed to grant this role' },
  // The message names the organizations (placeholder filled at the throw site); details list their id, name, slug.
  USER_IS_THE_ONLY_OWNER_OF_ORGANIZATIONS: {
    status: 400,
    message: 'The user is the only owner of organizations that have other members: {organizations}',
  },
  ROLE_NOT_FOUND: { status: 400, message: 'Role not found' },

  // Invitations: pending until accepted, rejected, canceled or expired
  INVITATION_NOT_FOUND: { status: 400, message: 'Invitation not found' },
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: { status: 403, message: 'You are not the recipient of the invitation' },
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: {
    status: 403,
    message: 'Email verification required before accepting or rejecting invitation',
  },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: {
    status: 403,
    message: 'You are not allowed to invite users to this organization',
  },
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: { status: 403, message: 'You are not allowed to cancel this invitation' },
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: {
    status: 400,
    message: 'Inviter is no longer a member of the organization',
  },
  INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_WITH_THIS_ROLE: {
    status: 403,
    message: 'Inviter is no longer allowed to invite with this role',
  },
  FAILED_TO_RETRIEVE_INVITATION: { status: 400, message: 'Failed to retrieve invitation' },
  INVITATION_LIMIT_REACHED: { status: 403, message: 'Invitation limit reached' },

  // Teams
  TEAM_NOT_FOUND: { status: 400, message: 'Team not found' },
  UNABLE_TO_REMOVE_LAST_TEAM: { status: 400, message: 'Unable to remove last team' },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: {
    status: 403,
    message: 'You are not allowed to create teams in this organization',
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: {
    status: 403,
    message: 'You are not allowed to delete teams in this organization',
  },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: { status: 403, message: 'You are not allowed to update this team' },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: { status: 403, message: 'You have reached the maximum number of teams' },
  TEAM_MEMBER_LIMIT_REACHED: { status: 403, message: 'Team member limit reached' },
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: { status: 400, message: 'User is not a member of the team' },
  USER_IS_ALREADY_A_MEMBER_OF_THIS_TEAM: { status: 400, message: 'User is already a member of this team' },

  // Roles created at run time
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES: { status: 403, message: 'You are not allowed to manage roles in this organization' },
  ROLE_ALREADY_EXISTS: { status: 400, message: 'Role already exists' },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ROLES: { status: 403, message: 'You have reached the maximum number of roles' },
  ROLE_IS_ASSIGNED_TO_MEMBERS: { status: 400, message: 'Cannot delete a role that is assigned to members' },
  INVALID_PERMISSION: { status: 400, message: 'Invalid permission' },
})

export type OrganizationErrorCode = keyof typeof OrganizationErrors
