/**
 * Organizations: the caller's list with create and switch, the active one
 * with its members (roles, removal; a member the organization's directory
 * suspended is marked so), invitations, teams and, for its owners and admins,
 * single sign-on providers (sso-pages.tsx) and directory sync by SCIM
 * (scim-pages.tsx), and the page a mailed invitation link opens. The hooks
 * share one store with the rest of the app: switching the active
 * organization reloads every view of it.
 */
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client, type SessionData } from '../auth-client.js'
import { Link, navigate } from '../router.js'
import { ScimSettings } from './scim-pages.js'
import { SsoSettings } from './sso-pages.js'

const ROLES = ['member', 'admin', 'owner'] as const

/**
 * Whether the organization's directory suspended the member (docs/scim.md#suspension): the SCIM plugin's
 * `suspendedAt` column on the member table. The organization client's member type names only that plugin's
 * own fields, but its shapes pass other fields through, so the rows carry it, as JSON text.
 */
function isSuspended(member: object): boolean {
  return 'suspendedAt' in member && member.suspendedAt !== null && member.suspendedAt !== undefined
}

export function OrganizationsPage({ session }: { session: SessionData }) {
  const organizations = client.useListOrganizations()
  const create = useAction()
  const switching = useAction()
  return (
    <section>
      <h1>Organizations</h1>
      <Status action={switching} />
      {organizations.isPending ? <p>Loading…</p> : null}
      <ul className="cards">
        {(organizations.data ?? []).map((organization) => {
          const active = organization.id === session.session.activeOrganizationId
          return (
            <li key={organization.id}>
              <strong>{organization.name}</strong> <span className="muted">/{organization.slug}</span> {active ? <em>(active)</em> : null}
              {active ? null : (
                <button type="button" onClick={() => void switching.run(() => client.organization.setActive({ organizationId: organization.id }))}>
                  Switch to {organization.name}
                </button>
              )}
            </li>
          )
        })}
      </ul>

      <form
        aria-labelledby="new-organization"
        onSubmit={(event) => {
          const form = event.currentTarget
          const { name = '', slug = '' } = fields(event)
          void create.run(() => client.organization.create({ name, slug }), () => form.reset(), `Created ${name}.`)
        }}
      >
        <h2 id="new-organization">New organization</h2>
        <label>
          Name
          <input name="name" required />
        </label>
        <label>
          Slug
          <input name="slug" pattern="[a-z0-9-]+" title="lower-case letters, digits and hyphens" required />
        </label>
        <Submit action={create}>Create organization</Submit>
        <Status action={create} />
      </form>

      <ActiveOrganization session={session} />
      <MyInvitations />
    </section>
  )
}

function ActiveOrganization({ session }: { session: SessionData }) {
  const { data: organization, refetch } = client.useActiveOrganization()
  const { data: me } = client.useActiveMember()
  const act = useAction()
  const invite = useAction()
  const team = useAction()
  if (!organization) return <p className="muted">No active organization: create one or switch to one above.</p>
  const canManage = me ? me.role.split(',').some((role) => role === 'owner' || role === 'admin') : false
  return (
    <section aria-labelledby="active-organization">
      <h2 id="active-organization">{organization.name}</h2>
      <Status action={act} />

      <h3>Members</h3>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Role</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {organization.members.map((member) => (
            <tr key={member.id}>
              <td>
                {member.user?.name}
                {isSuspended(member) ? <em title="Deactivated by the organization's directory: no access until it reactivates them"> (suspended)</em> : null}
              </td>
              <td>{member.user?.email}</td>
              <td>
                {canManage && member.userId !== session.user.id ? (
                  <select
                    aria-label={`Role of ${member.user?.email ?? member.userId}`}
                    value={member.role}
                    onChange={(event) =>
                      void act.run(() => client.organization.updateMemberRole({ memberId: member.id, role: event.target.value }), () => void refetch())
                    }
                  >
                    {ROLES.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </select>
                ) : (
                  member.role
                )}
              </td>
              <td>
                {member.userId === session.user.id ? (
                  <button
                    type="button"
                    onClick={() => void act.run(() => client.organization.leave({ organizationId: organization.id }), () => navigate('/organizations'))}
                  >
                    Leave
                  </button>
                ) : canManage ? (
                  <button type="button" onClick={() => void act.run(() => client.organization.removeMember({ memberIdOrEmail: member.id }))}>
                    Remove
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Invitations</h3>
      <ul>
        {organization.invitations
          .filter((invitation) => invitation.status === 'pending')
          .map((invitation) => (
            <li key={invitation.id}>
              {invitation.email} as {invitation.role}{' '}
              {canManage ? (
                <button type="button" onClick={() => void act.run(() => client.organization.cancelInvitation({ invitationId: invitation.id }))}>
                  Cancel
                </button>
              ) : null}
            </li>
          ))}
      </ul>
      {canManage ? (
        <form
          aria-labelledby="invite-member"
          onSubmit={(event) => {
            const form = event.currentTarget
            const { email = '', role = 'member' } = fields(event)
            void invite.run(() => client.organization.inviteMember({ email, role }), () => form.reset(), `Invitation sent to ${email}.`)
          }}
        >
          <h4 id="invite-member">Invite someone</h4>
          <label>
            Email
            <input name="email" type="email" required />
          </label>
          <label>
            Role
            <select name="role" defaultValue="member">
              {ROLES.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          </label>
          <Submit action={invite}>Send invitation</Submit>
          <Status action={invite} />
        </form>
      ) : null}

      <h3>Teams</h3>
      <ul>
        {(organization.teams ?? []).map((item) => (
          <li key={item.id}>{item.name}</li>
        ))}
      </ul>
      {canManage ? (
        <form
          aria-labelledby="new-team"
          onSubmit={(event) => {
            const form = event.currentTarget
            const { name = '' } = fields(event)
            void team.run(() => client.organization.createTeam({ name }), () => {
              form.reset()
              void refetch()
            })
          }}
        >
          <h4 id="new-team">New team</h4>
          <label>
            Team name
            <input name="name" required />
          </label>
          <Submit action={team}>Create team</Submit>
          <Status action={team} />
        </form>
      ) : null}

      {canManage ? <SsoSettings organizationId={organization.id} /> : null}
      {canManage ? <ScimSettings organizationId={organization.id} /> : null}
    </section>
  )
}

type UserInvitations = NonNullable<Awaited<ReturnType<typeof client.organization.listUserInvitations>>['data']>

function MyInvitations() {
  const [invitations, setInvitations] = useState<UserInvitations>([])
  const load = useAction()
  useEffect(() => {
    void load.run(() => client.organization.listUserInvitations(), (result) => setInvitations(result.data ?? []))
    // Loaded when the page opens.
  }, [])
  const pending = invitations.filter((invitation) => invitation.status === 'pending')
  if (pending.length === 0) return null
  return (
    <section aria-labelledby="my-invitations">
      <h2 id="my-invitations">Invitations for you</h2>
      <ul>
        {pending.map((invitation) => (
          <li key={invitation.id}>
            <Link to={`/accept-invitation/${invitation.id}`}>Invitation to join as {invitation.role}</Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

type Invitation = NonNullable<Awaited<ReturnType<typeof client.organization.getInvitation>>['data']>

export function AcceptInvitationPage({ invitationId, session }: { invitationId: string; session: SessionData | null }) {
  const [invitation, setInvitation] = useState<Invitation | null>(null)
  const load = useAction()
  const answer = useAction()
  const signedIn = session !== null
  useEffect(() => {
    if (signedIn) void load.run(() => client.organization.getInvitation({ id: invitationId }), (result) => setInvitation(result.data ?? null))
    // Reloaded when the visitor signs in.
  }, [invitationId, signedIn])
  const here = `/accept-invitation/${encodeURIComponent(invitationId)}`
  if (!session) {
    return (
      <section>
        <h1>You have been invited</h1>
        <p>
          <Link to={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in</Link> or{' '}
          <Link to={`/sign-up?next=${encodeURIComponent(here)}`}>create an account</Link> with the invited email to answer.
        </p>
      </section>
    )
  }
  return (
    <section>
      <h1>Invitation</h1>
      <Status action={load} />
      {invitation ? (
        <>
          <p>
            Join <strong>{invitation.organizationName}</strong> as <strong>{invitation.role}</strong>, invited by {invitation.inviterEmail}.
          </p>
          <button
            type="button"
            disabled={answer.pending}
            onClick={() => void answer.run(() => client.organization.acceptInvitation({ invitationId }), () => navigate('/organizations'))}
          >
            Accept
          </button>{' '}
          <button
            type="button"
            disabled={answer.pending}
            onClick={() => void answer.run(() => client.organization.rejectInvitation({ invitationId }), undefined, 'Invitation declined.')}
          >
            Decline
          </button>
          <Status action={answer} />
        </>
      ) : null}
    </section>
  )
}
