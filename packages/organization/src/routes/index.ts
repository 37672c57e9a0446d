/**
 * @module
 * The plugin's endpoint map: the key is the `auth.api` method, each
 * endpoint's path the wire route under `/organization/...`
 * (docs/reference/routes.md).
 */
import type { ResolvedOptions } from '../options.js'
import { checkOrganizationSlug } from './organization/check-slug.js'
import { createOrganization } from './organization/create.js'
import { deleteOrganization } from './organization/delete.js'
import { getFullOrganization } from './organization/get-full-organization.js'
import { listOrganizations } from './organization/list.js'
import { setActiveOrganization } from './organization/set-active.js'
import { updateOrganization } from './organization/update.js'
import { addMember } from './member/add-member.js'
import { createOrganizationRole } from './role/create-role.js'
import { deleteOrganizationRole } from './role/delete-role.js'
import { listOrganizationRoles } from './role/list-roles.js'
import { updateOrganizationRole } from './role/update-role.js'
import { createTeam } from './team/create-team.js'
import { listTeams } from './team/list-teams.js'
import { removeTeam } from './team/remove-team.js'
import { setActiveTeam } from './team/set-active-team.js'
import { addTeamMember, listTeamMembers, removeTeamMember } from './team/team-members.js'
import { updateTeam } from './team/update-team.js'
import { acceptInvitation } from './invitation/accept-invitation.js'
import { cancelInvitation } from './invitation/cancel-invitation.js'
import { getInvitation } from './invitation/get-invitation.js'
import { inviteMember } from './invitation/invite-member.js'
import { listInvitations } from './invitation/list-invitations.js'
import { listUserInvitations } from './invitation/list-user-invitations.js'
import { rejectInvitation } from './invitation/reject-invitation.js'
import { getActiveMember } from './member/get-active-member.js'
import { hasPermissionRoute } from './member/has-permission.js'
import { leaveOrganization } from './member/leave.js'
import { listMembers } from './member/list-members.js'
import { removeMember } from './member/remove-member.js'
import { updateMemberRole } from './member/update-member-role.js'

export function organizationEndpoints(options: ResolvedOptions) {
  return {
    createOrganization: createOrganization(options),
    checkOrganizationSlug: checkOrganizationSlug(),
    updateOrganization: updateOrganization(options),
    deleteOrganization: deleteOrganization(options),
    listOrganizations: listOrganizations(),
    setActiveOrganization: setActiveOrganization(options),
    getFullOrganization: getFullOrganization(options),
    addMember: addMember(options),
    listMembers: listMembers(options),
    updateMemberRole: updateMemberRole(options),
    removeMember: removeMember(options),
    leaveOrganization: leaveOrganization(options),
    getActiveMember: getActiveMember(options),
    hasPermission: hasPermissionRoute(options),
    inviteMember: inviteMember(options),
    getInvitation: getInvitation(options),
    listInvitations: listInvitations(options),
    listUserInvitations: listUserInvitations(options),
    acceptInvitation: acceptInvitation(options),
    rejectInvitation: rejectInvitation(options),
    cancelInvitation: cancelInvitation(options),
    createTeam: createTeam(options),
    listTeams: listTeams(options),
    updateTeam: updateTeam(options),
    removeTeam: removeTeam(options),
    addTeamMember: addTeamMember(options),
    removeTeamMember: removeTeamMember(options),
    listTeamMembers: listTeamMembers(options),
    setActiveTeam: setActiveTeam(options),
    createOrganizationRole: createOrganizationRole(options),
    listOrganizationRoles: listOrganizationRoles(options),
    updateOrganizationRole: updateOrganizationRole(options),
    deleteOrganizationRole: deleteOrganizationRole(options),
  } as const
}
