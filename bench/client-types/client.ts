/**
 * A client with every first-party plugin, typed from the server, calling
 * every route once and reading its answer, as an application using all of
 * them would.
 */
import { billingClient } from '../../packages/billing/src/client.js'
import { organizationClient } from '../../packages/organization/src/client.js'
import { createAuthClient } from '../../packages/react/src/index.js'
import type { auth } from './server.js'

const client = createAuthClient<typeof auth>({ baseURL: 'http://localhost:3000', plugins: [organizationClient(), billingClient()] })
const o = client.organization
const id = 'x'

export async function everyRoute(): Promise<unknown[]> {
  const email = 'ada@example.com'
  const password = 'correct horse battery'
  const answers = await Promise.all([
    client.signUp.email({ name: 'Ada', email, password, plan: 'pro' }).then((r) => r.data?.user.seats),
    client.signIn.email({ email, password }).then((r) => r.data?.user.createdAt),
    client.signOut().then((r) => r.data?.success),
    client.getSession().then((r) => r.data?.session.device),
    client.listSessions().then((r) => r.data?.[0]?.expiresAt),
    client.revokeSession({ token: id }).then((r) => r.data?.status),
    client.revokeSessions().then((r) => r.data?.status),
    client.revokeOtherSessions().then((r) => r.data?.status),
    client.updateUser({ name: 'Ada', plan: null }).then((r) => r.data?.status),
    client.changeEmail({ newEmail: email }).then((r) => r.data?.status),
    client.changePassword({ currentPassword: password, newPassword: password }).then((r) => r.data?.token),
    client.deleteUser({ password }).then((r) => r.data?.message),
    client.deleteUserCallback({ token: id }).then((r) => r.data?.success),
    client.listAccounts().then((r) => r.data?.[0]?.scopes),
    client.unlinkAccount({ providerId: 'github' }).then((r) => r.data?.status),
    client.sendVerificationEmail({ email }).then((r) => r.data?.status),
    client.verifyEmail({ token: id }).then((r) => r.data?.user.plan),
    client.requestPasswordReset({ email }).then((r) => r.data?.message),
    client.forgetPassword({ email }).then((r) => r.data?.message),
    client.resetPassword({ newPassword: password, token: id }).then((r) => r.data?.status),
    o.create({ name: 'Acme', slug: 'acme' }).then((r) => r.data?.members[0]?.role),
    o.checkSlug({ slug: 'acme' }).then((r) => r.data?.status),
    o.update({ data: { name: 'Acme' } }).then((r) => r.data?.name),
    o.delete({ organizationId: id }).then((r) => r.data?.slug),
    o.list().then((r) => r.data?.[0]?.createdAt),
    o.setActive({ organizationId: id }).then((r) => r.data?.invitations),
    o.getFullOrganization({ organizationSlug: 'acme' }).then((r) => r.data?.teams),
    o.listMembers({ limit: 10 }).then((r) => r.data?.total),
    o.updateMemberRole({ memberId: id, role: 'admin' }).then((r) => r.data?.role),
    o.removeMember({ memberIdOrEmail: email }).then((r) => r.data?.member.userId),
    o.leave({ organizationId: id }).then((r) => r.data?.organizationId),
    o.getActiveMember().then((r) => r.data?.user),
    o.hasPermission({ permissions: { member: ['create'] } }).then((r) => r.data?.success),
    o.inviteMember({ email, role: 'member' }).then((r) => r.data?.expiresAt),
    o.getInvitation({ id }).then((r) => r.data?.organizationName),
    o.listInvitations().then((r) => r.data?.[0]?.status),
    o.listUserInvitations().then((r) => r.data?.[0]?.organizationSlug),
    o.acceptInvitation({ invitationId: id }).then((r) => r.data?.member.role),
    o.rejectInvitation({ invitationId: id }).then((r) => r.data?.invitation.status),
    o.cancelInvitation({ invitationId: id }).then((r) => r.data?.status),
    o.createTeam({ name: 'Blue' }).then((r) => r.data?.name),
    o.listTeams().then((r) => r.data?.[0]?.updatedAt),
    o.updateTeam({ teamId: id, data: { name: 'Navy' } }).then((r) => r.data?.name),
    o.removeTeam({ teamId: id }).then((r) => r.data?.message),
    o.addTeamMember({ teamId: id, userId: id }).then((r) => r.data),
    o.removeTeamMember({ teamId: id, userId: id }).then((r) => r.data),
    o.listTeamMembers({ teamId: id }).then((r) => r.data),
    o.setActiveTeam({ teamId: null }).then((r) => r.data?.organizationId),
    o.createRole({ role: 'auditor', permission: { member: ['create'] } }).then((r) => r.data?.permission),
    o.listRoles().then((r) => r.data?.[0]?.role),
    o.updateRole({ roleName: 'auditor', data: { permission: {} } }).then((r) => r.data?.updatedAt),
    o.deleteRole({ roleName: 'auditor' }).then((r) => r.data?.success),
    client.customer.state({ referenceId: id }).then((r) => r.data?.activeSubscriptions[0]?.currentPeriodEnd),
    client.customer.subscriptions({ limit: 10 }).then((r) => r.data?.items[0]?.status),
    client.customer.orders({ offset: 10 }).then((r) => r.data?.total),
    client.customer.benefits().then((r) => r.data?.items[0]?.grantedAt),
  ])
  return answers
}

/** The hooks, read as components would. */
export function hooks(): unknown[] {
  const { data: session, error } = client.useSession()
  if (error) {
    switch (error.code) {
      case 'UNAUTHORIZED':
      case 'CLIENT_VALIDATION_ERROR':
      case 'NO_ACTIVE_ORGANIZATION':
        break
    }
  }
  return [
    session?.user.seats,
    client.useActiveOrganization().data?.members[0]?.user?.email,
    client.useListOrganizations().data?.[0]?.slug,
    client.useActiveMember().data?.role,
    client.useCustomerState().data?.grantedBenefits[0]?.benefitId,
  ]
}
