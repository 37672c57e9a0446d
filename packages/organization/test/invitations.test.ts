import { describe, expect, it } from 'vitest'
import { createAccessControl } from '../src/access/access-control.js'
import { adminRole, defaultStatements, memberRole, ownerRole } from '../src/access/statements.js'
import { accountAuth } from '../../core/test/accounts.js'
import { organization } from '../src/plugin.js'
import { addMember, get, newUser, orgAuth, post, roster, sessionOf, type OrgAuth, type Roster } from './fixtures.js'

const notMember = { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' }
const notFound = { code: 'INVITATION_NOT_FOUND', message: 'Invitation not found' }
const notRecipient = { code: 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION', message: 'You are not the recipient of the invitation' }
const unverified = {
  code: 'EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION',
  message: 'Email verification required before accepting or rejecting invitation',
}

async function invite(auth: OrgAuth, r: Roster, email: string, role: string | string[] = 'member') {
  const reply = await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email, role })
  if (reply.status !== 200) throw new Error(`invite failed: ${JSON.stringify(reply.body)}`)
  return reply.body as { id: string; email: string; role: string; status: string; expiresAt: string }
}

describe('POST /organization/invite-member', () => {
  it('without sendInvitationEmail, start-up warns once that invitations are not mailed; with it, nothing is said', async () => {
    const lines: string[] = []
    const logger = { level: 'warn' as const, log: (_level: string, message: string) => lines.push(message) }
    const silent = accountAuth({ logger, plugins: [organization()] })
    await silent.$context
    await silent.$context
    expect(lines).toEqual([expect.stringContaining('organization: sendInvitationEmail is not set')])
    lines.length = 0
    await orgAuth({}, { logger }).$context
    expect(lines).toEqual([])
  })

  it('owner and admin invite; the invitation is pending for 48 hours and mailed', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const reply = await post(auth, 'invite-member', r.admin, { organizationId: r.org.id, email: 'New.Person@Example.com', role: 'member' })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ organizationId: r.org.id, email: 'new.person@example.com', role: 'member', status: 'pending', inviterId: r.admin.id, teamId: null })
    expect(new Date(reply.body.expiresAt).getTime() - auth.clock.now().getTime()).toBe(172_800_000)
    expect(auth.invitations).toEqual([{ id: reply.body.id, email: 'new.person@example.com', role: 'member', organizationId: r.org.id }])
    expect((await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email: 'b@example.com', role: 'admin' })).status).toBe(200)
  })

  it('member, outsider and anonymous may not invite', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const send = (caller: typeof r.owner | null) => post(auth, 'invite-member', caller, { organizationId: r.org.id, email: 'x@example.com', role: 'member' })
    expect(await send(r.member)).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION', message: 'You are not allowed to invite users to this organization' },
    })
    expect(await send(r.outsider)).toEqual({ status: 403, body: notMember })
    expect((await send(null)).status).toBe(401)
    expect(auth.invitations).toEqual([])
  })

  it('re-inviting a pending email answers the same invitation; resend mails it again', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const first = await invite(auth, r, 'again@example.com')
    const second = await invite(auth, r, 'AGAIN@example.com', 'admin')
    expect(second.id).toBe(first.id)
    expect(second.role).toBe('member')
    const { db } = await auth.$context
    expect(await db.count({ model: 'invitation', where: { field: 'email', value: 'again@example.com' } })).toBe(1)
    expect(auth.invitations).toHaveLength(1)
    await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email: 'again@example.com', role: 'member', resend: true })
    expect(auth.invitations.map((mail) => mail.id)).toEqual([first.id, first.id])
  })

  it('refuses members, unknown roles, owner invitations from admins, and invitations past the limit', async () => {
    const auth = orgAuth({ invitationLimit: 1 })
    const r = await roster(auth)
    const send = (caller: typeof r.owner, email: string, role: string) => post(auth, 'invite-member', caller, { organizationId: r.org.id, email, role })
    expect(await send(r.owner, r.member.email, 'member')).toEqual({
      status: 400,
      body: { code: 'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION', message: 'User is already a member of this organization' },
    })
    expect((await send(r.owner, 'a@example.com', 'wizard')).body.code).toBe('ROLE_NOT_FOUND')
    expect((await send(r.admin, 'a@example.com', 'owner')).body.code).toBe('YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE')
    expect((await send(r.owner, 'a@example.com', 'member')).status).toBe(200)
    expect(await send(r.owner, 'b@example.com', 'member')).toEqual({
      status: 403,
      body: { code: 'INVITATION_LIMIT_REACHED', message: 'Invitation limit reached' },
    })
  })

  it('a failing mail callback leaves no invitation behind', async () => {
    const auth = orgAuth({ sendInvitationEmail: () => Promise.reject(new Error('smtp down')) })
    const r = await roster(auth)
    const reply = await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email: 'x@example.com', role: 'member' })
    expect(reply.status).toBe(500)
    const { db } = await auth.$context
    expect(await db.count({ model: 'invitation', where: { field: 'organizationId', value: r.org.id } })).toBe(0)
  })
})

describe('GET /organization/get-invitation and list-user-invitations', () => {
  it('shows the invitation with organization and inviter to its recipient only', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, 'BO@example.com')
    expect(await get(auth, 'get-invitation', bo, { id: invitation.id })).toMatchObject({
      status: 200,
      body: { id: invitation.id, status: 'pending', organizationName: r.org.name, organizationSlug: r.org.slug, inviterEmail: r.owner.email },
    })
    expect(await get(auth, 'get-invitation', r.member, { id: invitation.id })).toEqual({ status: 403, body: notRecipient })
    expect(await get(auth, 'get-invitation', bo, { id: 'missing' })).toEqual({ status: 400, body: notFound })
    expect((await get(auth, 'get-invitation', null, { id: invitation.id })).status).toBe(401)
    const mine = await get(auth, 'list-user-invitations', bo)
    expect(mine.body).toMatchObject([{ id: invitation.id, organizationName: r.org.name }])
    expect((await get(auth, 'list-user-invitations', r.member)).body).toEqual([])
    auth.clock.advance(172_800_001)
    expect(await get(auth, 'get-invitation', bo, { id: invitation.id })).toEqual({ status: 400, body: notFound })
    expect((await get(auth, 'list-user-invitations', bo)).body).toEqual([])
  })

  it('needs a verified email unless that requirement is off', async () => {
    const strict = orgAuth()
    const r = await roster(strict)
    const bo = await newUser(strict, { email: 'bo@example.com', verified: false })
    const invitation = await invite(strict, r, bo.email)
    expect(await get(strict, 'get-invitation', bo, { id: invitation.id })).toEqual({ status: 403, body: unverified })
    expect(await post(strict, 'accept-invitation', bo, { invitationId: invitation.id })).toEqual({ status: 403, body: unverified })
    expect(await post(strict, 'reject-invitation', bo, { invitationId: invitation.id })).toEqual({ status: 403, body: unverified })
    expect((await get(strict, 'list-user-invitations', bo)).status).toBe(403)

    const lax = orgAuth({ requireEmailVerificationOnInvitation: false })
    const r2 = await roster(lax)
    const eve = await newUser(lax, { email: 'eve@example.com', verified: false })
    const second = await invite(lax, r2, eve.email)
    expect((await get(lax, 'get-invitation', eve, { id: second.id })).status).toBe(200)
    expect((await post(lax, 'accept-invitation', eve, { invitationId: second.id })).status).toBe(200)
  })
})

describe('POST /organization/accept-invitation', () => {
  it('makes the recipient a member with the invitation’s role and activates the organization', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, 'Bo@Example.com', ['admin', 'member'])
    const reply = await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })
    expect(reply.status).toBe(200)
    expect(reply.body.invitation).toMatchObject({ id: invitation.id, status: 'accepted' })
    expect(reply.body.member).toMatchObject({ organizationId: r.org.id, userId: bo.id, role: 'admin,member' })
    expect((await sessionOf(auth, bo))?.activeOrganizationId).toBe(r.org.id)
    expect(await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })).toEqual({ status: 400, body: notFound })
  })

  it('refuses another user, a missing or expired invitation, and anonymous callers', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, bo.email)
    expect(await post(auth, 'accept-invitation', r.outsider, { invitationId: invitation.id })).toEqual({ status: 403, body: notRecipient })
    expect(await post(auth, 'accept-invitation', bo, { invitationId: 'missing' })).toEqual({ status: 400, body: notFound })
    expect((await post(auth, 'accept-invitation', null, { invitationId: invitation.id })).status).toBe(401)
    auth.clock.advance(172_800_000)
    expect(await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })).toEqual({ status: 400, body: notFound })
  })

  it('cannot be accepted once the inviter has left', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const sent = await post(auth, 'invite-member', r.admin, { organizationId: r.org.id, email: bo.email, role: 'member' })
    expect((await post(auth, 'leave', r.admin, { organizationId: r.org.id })).status).toBe(200)
    expect(await post(auth, 'accept-invitation', bo, { invitationId: sent.body.id })).toEqual({
      status: 400,
      body: { code: 'INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION', message: 'Inviter is no longer a member of the organization' },
    })
  })

  it('cannot be accepted once the inviter may no longer grant the invited role (docs/organization.md#security)', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const eve = await newUser(auth, { email: 'eve@example.com' })
    const asAdmin = await post(auth, 'invite-member', r.admin, { organizationId: r.org.id, email: bo.email, role: 'admin' })
    const asMember = await post(auth, 'invite-member', r.admin, { organizationId: r.org.id, email: eve.email, role: 'member' })
    expect([asAdmin.status, asMember.status]).toEqual([200, 200])
    // The inviter is demoted: a member grants nothing and may not invite.
    expect((await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.admin, role: 'member' })).status).toBe(200)
    const refused = {
      status: 403,
      body: { code: 'INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_WITH_THIS_ROLE', message: 'Inviter is no longer allowed to invite with this role' },
    }
    expect(await post(auth, 'accept-invitation', bo, { invitationId: asAdmin.body.id })).toEqual(refused)
    expect(await post(auth, 'accept-invitation', eve, { invitationId: asMember.body.id })).toEqual(refused)
    const { db } = await auth.$context
    expect(await db.count({ model: 'member', where: { field: 'userId', value: bo.id } })).toBe(0)
    expect(await db.findOne({ model: 'invitation', where: { field: 'id', value: asAdmin.body.id } })).toMatchObject({ status: 'pending' })
    // The invitation speaks for the inviter as they are when it is accepted: promoted again, it holds again.
    expect((await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.admin, role: 'admin' })).status).toBe(200)
    expect(await post(auth, 'accept-invitation', bo, { invitationId: asAdmin.body.id })).toMatchObject({ status: 200, body: { member: { role: 'admin' } } })
  })

  it('an inviter who may still invite, but no longer grant the role, is refused too', async () => {
    const ac = createAccessControl(defaultStatements)
    const roles = { owner: ownerRole, admin: adminRole, member: memberRole, recruiter: ac.newRole({ invitation: ['create'] }) }
    const auth = orgAuth({ roles })
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const sent = await post(auth, 'invite-member', r.admin, { organizationId: r.org.id, email: bo.email, role: 'admin' })
    await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.admin, role: 'recruiter' })
    expect((await post(auth, 'accept-invitation', bo, { invitationId: sent.body.id })).body.code).toBe('INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_WITH_THIS_ROLE')
  })

  it('answers 403 when the organization is full', async () => {
    const auth = orgAuth({ membershipLimit: 3 })
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, bo.email)
    expect(await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })).toEqual({
      status: 403,
      body: { code: 'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED', message: 'Organization membership limit reached' },
    })
  })

  it('a user who already joined cannot accept again', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, bo.email)
    await addMember(auth, r.org.id, bo)
    expect((await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })).body.code).toBe('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  })

  it('twenty concurrent accepts of one invitation make one member', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, bo.email)
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(auth, 'accept-invitation', bo, { invitationId: invitation.id })))
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    for (const reply of replies.filter((candidate) => candidate.status !== 200)) expect(reply.status).toBe(400)
    const { db } = await auth.$context
    expect(await db.count({ model: 'member', where: { field: 'userId', value: bo.id } })).toBe(1)
  })
})

describe('POST /organization/reject-invitation', () => {
  it('the recipient rejects; the invitation can no longer be accepted', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const invitation = await invite(auth, r, bo.email)
    expect(await post(auth, 'reject-invitation', r.member, { invitationId: invitation.id })).toEqual({ status: 403, body: notRecipient })
    expect((await post(auth, 'reject-invitation', null, { invitationId: invitation.id })).status).toBe(401)
    const reply = await post(auth, 'reject-invitation', bo, { invitationId: invitation.id })
    expect(reply).toMatchObject({ status: 200, body: { invitation: { id: invitation.id, status: 'rejected' }, member: null } })
    expect(await post(auth, 'accept-invitation', bo, { invitationId: invitation.id })).toEqual({ status: 400, body: notFound })
    expect(await post(auth, 'reject-invitation', bo, { invitationId: 'missing' })).toEqual({ status: 400, body: notFound })
  })
})

describe('POST /organization/cancel-invitation and GET list-invitations', () => {
  it('owner and admin cancel; member, outsider and anonymous may not', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const first = await invite(auth, r, bo.email)
    const second = await invite(auth, r, 'other@example.com')
    const cancel = (caller: typeof r.owner | null, invitationId: string) => post(auth, 'cancel-invitation', caller, { invitationId })
    expect(await cancel(r.member, first.id)).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION', message: 'You are not allowed to cancel this invitation' },
    })
    expect(await cancel(r.outsider, first.id)).toEqual({ status: 403, body: notMember })
    expect((await cancel(null, first.id)).status).toBe(401)
    expect(await cancel(r.admin, first.id)).toMatchObject({ status: 200, body: { id: first.id, status: 'canceled' } })
    expect(await cancel(r.owner, second.id)).toMatchObject({ status: 200, body: { status: 'canceled' } })
    expect(await cancel(r.owner, 'missing')).toEqual({ status: 400, body: notFound })
    expect(await post(auth, 'accept-invitation', bo, { invitationId: first.id })).toEqual({ status: 400, body: notFound })

    const list = await get(auth, 'list-invitations', r.member, { organizationId: r.org.id })
    expect(list.status).toBe(200)
    expect(list.body.map((invitation: { status: string }) => invitation.status)).toEqual(['canceled', 'canceled'])
    expect(await get(auth, 'list-invitations', r.outsider, { organizationId: r.org.id })).toEqual({ status: 403, body: notMember })
    expect((await get(auth, 'list-invitations', null, { organizationId: r.org.id })).status).toBe(401)
  })
})
