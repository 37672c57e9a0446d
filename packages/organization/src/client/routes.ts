/**
 * @module
 * The organization routes as the client calls them: `client.organization.<name>`,
 * each name the last segment of its path in camel case. `add-member` is left
 * out: it is server only. `signals` name the stores to reload after a
 * success: the session when the active organization (or team) may have
 * moved, which in turn reloads the stores that follow it, and the stores
 * whose data the call changed. A test compares the table with the server's
 * endpoints.
 */
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'
import {
  fullOrganizationShape,
  invitationShape,
  memberShape,
  memberWithUserShape,
  organizationShape,
  roleShape,
  teamMemberShape,
  teamShape,
} from './shapes.js'

const post = 'POST' as const
const get = 'GET' as const

export const organizationRoutes = {
  organization: {
    create: {
      endpoint: 'createOrganization',
      method: post,
      path: '/organization/create',
      output: z.extend(organizationShape, { members: z.array(memberShape) }),
      // The new organization becomes the active one unless keepCurrentActiveOrganization.
      signals: ['session', 'listOrganizations'],
    },
    checkSlug: {
      endpoint: 'checkOrganizationSlug',
      method: post,
      path: '/organization/check-slug',
      output: z.looseObject({ status: z.literal(true) }),
    },
    update: {
      endpoint: 'updateOrganization',
      method: post,
      path: '/organization/update',
      output: organizationShape,
      signals: ['activeOrganization', 'listOrganizations'],
    },
    delete: {
      endpoint: 'deleteOrganization',
      method: post,
      path: '/organization/delete',
      output: organizationShape,
      signals: ['session', 'activeOrganization', 'activeMember', 'listOrganizations'],
    },
    list: { endpoint: 'listOrganizations', method: get, path: '/organization/list', output: z.array(organizationShape) },
    setActive: {
      endpoint: 'setActiveOrganization',
      method: post,
      path: '/organization/set-active',
      output: z.nullable(fullOrganizationShape),
      signals: ['session'],
    },
    getFullOrganization: {
      endpoint: 'getFullOrganization',
      method: get,
      path: '/organization/get-full-organization',
      output: z.nullable(fullOrganizationShape),
    },
    listMembers: {
      endpoint: 'listMembers',
      method: get,
      path: '/organization/list-members',
      output: z.looseObject({ members: z.array(memberWithUserShape), total: z.number() }),
    },
    updateMemberRole: {
      endpoint: 'updateMemberRole',
      method: post,
      path: '/organization/update-member-role',
      output: memberShape,
      signals: ['activeOrganization', 'activeMember'],
    },
    // The member removed may be the caller (by email), whose active organization is then cleared.
    removeMember: {
      endpoint: 'removeMember',
      method: post,
      path: '/organization/remove-member',
      output: z.looseObject({ member: memberShape }),
      signals: ['session', 'activeOrganization', 'activeMember', 'listOrganizations'],
    },
    leave: {
      endpoint: 'leaveOrganization',
      method: post,
      path: '/organization/leave',
      output: memberShape,
      signals: ['session', 'activeOrganization', 'activeMember', 'listOrganizations'],
    },
    getActiveMember: {
      endpoint: 'getActiveMember',
      method: get,
      path: '/organization/get-active-member',
      output: memberWithUserShape,
    },
    hasPermission: {
      endpoint: 'hasPermission',
      method: post,
      path: '/organization/has-permission',
      output: z.looseObject({ success: z.boolean() }),
    },
    inviteMember: {
      endpoint: 'inviteMember',
      method: post,
      path: '/organization/invite-member',
      output: invitationShape,
      signals: ['activeOrganization'],
    },
    getInvitation: {
      endpoint: 'getInvitation',
      method: get,
      path: '/organization/get-invitation',
      output: z.extend(invitationShape, {
        organizationName: z.string(),
        organizationSlug: z.string(),
        inviterEmail: z.nullable(z.string()),
      }),
    },
    listInvitations: {
      endpoint: 'listInvitations',
      method: get,
      path: '/organization/list-invitations',
      output: z.array(invitationShape),
    },
    listUserInvitations: {
      endpoint: 'listUserInvitations',
      method: get,
      path: '/organization/list-user-invitations',
      output: z.array(
        z.extend(invitationShape, { organizationName: z.nullable(z.string()), organizationSlug: z.nullable(z.string()) }),
      ),
    },
    // The accepted organization becomes the active one.
    acceptInvitation: {
      endpoint: 'acceptInvitation',
      method: post,
      path: '/organization/accept-invitation',
      output: z.looseObject({ invitation: invitationShape, member: memberShape }),
      signals: ['session', 'listOrganizations'],
    },
    rejectInvitation: {
      endpoint: 'rejectInvitation',
      method: post,
      path: '/organization/reject-invitation',
      output: z.looseObject({ invitation: invitationShape, member: z.null() }),
    },
    cancelInvitation: {
      endpoint: 'cancelInvitation',
      method: post,
      path: '/organization/cancel-invitation',
      output: invitationShape,
      signals: ['activeOrganization'],
    },
    createTeam: {
      endpoint: 'createTeam',
      method: post,
      path: '/organization/create-team',
      output: teamShape,
      signals: ['activeOrganization'],
    },
    listTeams: { endpoint: 'listTeams', method: get, path: '/organization/list-teams', output: z.array(teamShape) },
    updateTeam: {
      endpoint: 'updateTeam',
      method: post,
      path: '/organization/update-team',
      output: teamShape,
      signals: ['activeOrganization'],
    },
    // Sessions that had the team active drop it.
    removeTeam: {
      endpoint: 'removeTeam',
      method: post,
      path: '/organization/remove-team',
      output: z.looseObject({ message: z.literal('Team removed successfully.') }),
      signals: ['session', 'activeOrganization'],
    },
    addTeamMember: {
      endpoint: 'addTeamMember',
      method: post,
      path: '/organization/add-team-member',
      output: teamMemberShape,
    },
    removeTeamMember: {
      endpoint: 'removeTeamMember',
      method: post,
      path: '/organization/remove-team-member',
      output: teamMemberShape,
      signals: ['session'],
    },
    listTeamMembers: {
      endpoint: 'listTeamMembers',
      method: get,
      path: '/organization/list-team-members',
      output: z.array(teamMemberShape),
    },
    setActiveTeam: {
      endpoint: 'setActiveTeam',
      method: post,
      path: '/organization/set-active-team',
      output: z.nullable(teamShape),
      signals: ['session'],
    },
    createRole: {
      endpoint: 'createOrganizationRole',
      method: post,
      path: '/organization/create-role',
      output: roleShape,
    },
    listRoles: {
      endpoint: 'listOrganizationRoles',
      method: get,
      path: '/organization/list-roles',
      output: z.array(roleShape),
    },
    updateRole: {
      endpoint: 'updateOrganizationRole',
      method: post,
      path: '/organization/update-role',
      output: roleShape,
    },
    deleteRole: {
      endpoint: 'deleteOrganizationRole',
      method: post,
      path: '/organization/delete-role',
      output: z.looseObject({ success: z.literal(true) }),
    },
  },
} as const satisfies RouteTable

export type OrganizationRoutes = typeof organizationRoutes
