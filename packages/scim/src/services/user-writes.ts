/**
 * @module
 * What a directory's writes do to Gatehouse (docs/scim.md#mapping). Each
 * runs in one transaction under the organization's row lock, the lock the
 * organization plugin takes for every change of membership, so two writes in
 * one organization (two creates of one `userName`: one 201, one 409) are
 * decided one after the other, on what the first committed.
 *
 * The rules that keep a token inside its organization:
 * - a user is only ever found as a member of the token's organization;
 * - the user row (name, email) changes only for a user SCIM created in this
 *   organization that belongs to no other one and does not hold the creator
 *   role: for anyone else only this organization's record of them changes,
 *   so a token holder cannot rename, or move the address of, an account
 *   that is not the directory's (an account takeover through the password
 *   reset mail);
 * - an existing user is taken into the organization by POST only if already
 *   a member (an SSO just-in-time user meets its SCIM record: no duplicate),
 *   or if the address is under a domain the organization has verified;
 *   otherwise 409, as a taken `userName`;
 * - a member holding the creator role is never suspended or removed (403).
 */
import { AuthError, isUniqueViolation, refreshUserInStorage, type AuthContext, type Row, type Store, type User } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../errors.js'
import type { ResolvedScimOptions } from '../options.js'
import type { ScimUserRow } from '../schema.js'
import { belongsElsewhere, endAccess } from './end-access.js'
import { isOwner, organizationAuthority, type OrganizationAuthority } from './organization.js'
import type { UserInput } from './user-input.js'
import { findUserView, type MemberRow, type UserView } from './user-resource.js'
import { hasVerifiedDomain } from './verified-domain.js'

export interface WriteContext {
  readonly auth: AuthContext
  readonly options: ResolvedScimOptions
  readonly organizationId: string
}

/**
 * Runs `write` in a transaction under the organization's lock; a unique index
 * refusing a row (a race the lock did not cover) is 409 `uniqueness`.
 */
export async function inOrganization<T>(context: WriteContext, write: (tx: Store) => Promise<T>): Promise<T> {
  try {
    return await context.auth.db.transaction(async (tx) => {
      const organization = await tx.lock({ model: 'organization', where: { field: 'id', value: context.organizationId } })
      if (!organization) throw new ScimError(ScimErrors.INVALID_TOKEN)
      return write(tx)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ScimError(ScimErrors.UNIQUENESS, { message: 'The value is already taken', cause: error })
    throw error
  }
}

function taken(what: string): ScimError {
  return new ScimError(ScimErrors.UNIQUENESS, { message: `${what} is already taken` })
}

/** 409 unless `userName` (and `externalId`) name no other member of the organization. */
async function checkUnique(tx: Store, context: WriteContext, input: UserInput, userId: string | null): Promise<void> {
  const inOrg = { field: 'organizationId', value: context.organizationId }
  const key = input.userName.toLowerCase()
  const byName = await tx.findOne<ScimUserRow>({ model: 'scimUser', where: [inOrg, { field: 'userNameKey', value: key }] })
  if (byName && byName.userId !== userId) throw taken('userName')
  // A member the directory never wrote answers to its email as userName.
  const byEmail = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: key } })
  if (byEmail && byEmail.id !== userId) {
    const member = await tx.findOne({ model: 'member', where: [inOrg, { field: 'userId', value: byEmail.id }] })
    const link = member ? await tx.findOne({ model: 'scimUser', where: [inOrg, { field: 'userId', value: byEmail.id }] }) : null
    if (member && !link) throw taken('userName')
  }
  if (input.externalId !== null) {
    const byExternalId = await tx.findOne<ScimUserRow>({ model: 'scimUser', where: [inOrg, { field: 'externalId', value: input.externalId }] })
    if (byExternalId && byExternalId.userId !== userId) throw taken('externalId')
  }
}

/**
 * POST /Users: a new member (docs/scim.md#creating-users). Answers the user id.
 *
 * @example
 * const userId = await createUser(context, input)
 */
export async function createUser(context: WriteContext, input: UserInput): Promise<string> {
  const authority = organizationAuthority(context.auth)
  return inOrganization(context, async (tx) => {
    if (!input.email) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'A user needs an email address: in userName or emails' })
    const existing = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: input.email } })
    // The user this POST would attach to is no conflict with itself (a member answering to its email as userName).
    await checkUnique(tx, context, input, existing?.id ?? null)
    const inOrg = { field: 'organizationId', value: context.organizationId }
    const verified = await hasVerifiedDomain(context.auth, tx, context.organizationId, input.email)
    let user: User & Row
    let createdUser = false
    if (existing) {
      const member = await tx.findOne({ model: 'member', where: [inOrg, { field: 'userId', value: existing.id }] })
      if (member) {
        // Already this directory's under another userName: a second resource for one person.
        const link = await tx.findOne<ScimUserRow>({ model: 'scimUser', where: [inOrg, { field: 'userId', value: existing.id }] })
        if (link) throw taken(link.userNameKey === input.userName.toLowerCase() ? 'userName' : 'The email')
      } else if (!verified) {
        throw taken('userName')
      }
      user = existing
    } else {
      user = await tx.create<User & Row>({ model: 'user', data: { name: input.name, email: input.email, emailVerified: verified } })
      createdUser = true
    }
    await provision(tx, authority, context, user.id)
    await tx.create({
      model: 'scimUser',
      data: {
        organizationId: context.organizationId,
        userId: user.id,
        userName: input.userName,
        userNameKey: input.userName,
        externalId: input.externalId,
        attributes: input.attributes,
        createdUser,
      },
    })
    const member = await tx.findOne<MemberRow>({ model: 'member', where: [inOrg, { field: 'userId', value: user.id }] })
    if (member && input.active === false && !member.suspendedAt) {
      if (isOwner(authority.rules, member)) throw new ScimError(ScimErrors.FORBIDDEN, { message: 'An owner of the organization cannot be deactivated through SCIM' })
      await suspend(tx, context, user.id)
    }
    if (member && input.active === true && member.suspendedAt) {
      await tx.update({ model: 'member', where: { field: 'id', value: member.id }, update: { suspendedAt: null } })
    }
    return user.id
  })
}

/** Adds the member, within the organization's limit and roles; an existing member row stays as it is. */
async function provision(tx: Store, authority: OrganizationAuthority, context: WriteContext, userId: string): Promise<void> {
  const result = await authority.provisionMember(tx, { organizationId: context.organizationId, userId, role: context.options.defaultRole })
  if (result.ok) return
  if (result.reason === 'limit-reached') throw new ScimError(ScimErrors.FORBIDDEN, { message: 'The organization has reached its membership limit' })
  if (result.reason === 'unknown-role') {
    context.auth.logger.error('scim: defaultRole names a role the organization does not define', { role: context.options.defaultRole })
    throw new ScimError(ScimErrors.FORBIDDEN, { message: 'The role for new members is not defined in this organization' })
  }
  if (result.reason === 'member-suspended') throw new ScimError(ScimErrors.FORBIDDEN, { message: 'The membership is suspended' })
  throw new ScimError(ScimErrors.INVALID_TOKEN)
}

/**
 * PUT /Users/:id and PATCH /Users/:id: the member's record becomes what
 * `build` makes of the member as it is under the lock (the body of a PUT;
 * the patched resource of a PATCH, so two PATCHes never work on one stale
 * copy), after its `If-Match` check (docs/scim.md#updating-users). Answers
 * false when the member is gone.
 *
 * @example
 * await replaceUser(context, id, (view) => readUserInput(body))
 */
export async function replaceUser(context: WriteContext, userId: string, build: (view: UserView) => UserInput): Promise<boolean> {
  const { rules } = organizationAuthority(context.auth)
  const outcome = await inOrganization(context, async (tx) => {
    const view = await findUserView(tx, context.organizationId, userId, { groups: context.options.groups })
    if (!view) return { found: false, changed: null }
    const input = build(view)
    const owner = isOwner(rules, view.member)
    if (owner && input.active === false) throw new ScimError(ScimErrors.FORBIDDEN, { message: 'An owner of the organization cannot be deactivated through SCIM' })
    await checkUnique(tx, context, input, userId)
    const link = { userName: input.userName, userNameKey: input.userName, externalId: input.externalId, attributes: input.attributes }
    if (view.link) await tx.update({ model: 'scimUser', where: { field: 'id', value: view.link.id }, update: link })
    else await tx.create({ model: 'scimUser', data: { ...link, organizationId: context.organizationId, userId, createdUser: false } })
    const owned = view.link?.createdUser === true && !owner && !(await belongsElsewhere(tx, { organizationId: context.organizationId, userId }))
    const changed = owned ? await updateProfile(tx, context, view.user, input) : null
    if (input.active === false && !view.member.suspendedAt) await suspend(tx, context, userId)
    if (input.active === true && view.member.suspendedAt) {
      await tx.update({ model: 'member', where: { field: 'id', value: view.member.id }, update: { suspendedAt: null } })
    }
    return { found: true, changed }
  })
  // Sessions kept in secondary storage show the user's new name and email (as core's update-user does).
  if (outcome.changed) await refreshUserInStorage(context.auth, outcome.changed)
  return outcome.found
}

/** The user row of a user the directory owns follows its name and email; a new email is verified only under a verified domain. */
async function updateProfile(tx: Store, context: WriteContext, user: User & Row, input: UserInput): Promise<(User & Row) | null> {
  const update: Row = {}
  if (input.name && input.name !== user.name) update.name = input.name
  if (input.email && input.email !== user.email) {
    const holder = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: input.email } })
    if (holder) throw taken('The email')
    update.email = input.email
    update.emailVerified = await hasVerifiedDomain(context.auth, tx, context.organizationId, input.email)
  }
  if (Object.keys(update).length === 0) return null
  return tx.update<User & Row>({ model: 'user', where: { field: 'id', value: user.id }, update })
}

/** Suspends the member and ends its access, in the caller's transaction (docs/scim.md#suspension). */
async function suspend(tx: Store, context: WriteContext, userId: string): Promise<void> {
  await tx.update({
    model: 'member',
    where: [
      { field: 'organizationId', value: context.organizationId },
      { field: 'userId', value: userId },
    ],
    update: { suspendedAt: context.auth.clock.now() },
  })
  await endAccess(context.auth, tx, { organizationId: context.organizationId, userId })
}

/**
 * DELETE /Users/:id: the membership goes with the member's teams of this
 * organization and the directory's record; the user row too when SCIM
 * created it and it belongs to no other organization. Answers false when
 * the member is gone.
 *
 * @example
 * if (!(await deleteUser(context, id))) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
 */
export async function deleteUser(context: WriteContext, userId: string, check?: (view: UserView) => void): Promise<boolean> {
  const { rules } = organizationAuthority(context.auth)
  return inOrganization(context, async (tx) => {
    const view = await findUserView(tx, context.organizationId, userId, { groups: context.options.groups })
    if (!view) return false
    check?.(view)
    if (isOwner(rules, view.member)) throw new ScimError(ScimErrors.FORBIDDEN, { message: 'An owner of the organization cannot be removed through SCIM' })
    const teams = await tx.findMany<Row & { id: string }>({ model: 'team', where: { field: 'organizationId', value: context.organizationId } })
    if (teams.length > 0) {
      await tx.deleteMany({
        model: 'teamMember',
        where: [
          { field: 'userId', value: userId },
          { field: 'teamId', operator: 'in', value: teams.map((team) => team.id) },
        ],
      })
    }
    await endAccess(context.auth, tx, { organizationId: context.organizationId, userId })
    await tx.delete({ model: 'member', where: { field: 'id', value: view.member.id } })
    if (view.link) await tx.delete({ model: 'scimUser', where: { field: 'id', value: view.link.id } })
    await clearActiveOrganization(context, tx, userId)
    if (view.link?.createdUser && !(await belongsElsewhere(tx, { organizationId: context.organizationId, userId }))) {
      // Through the store: the application's and other plugins' hooks on deleting a user run, and may veto.
      try {
        await tx.delete({ model: 'user', where: { field: 'id', value: userId } })
      } catch (error) {
        if (error instanceof AuthError && !(error instanceof ScimError)) throw new ScimError(ScimErrors.FORBIDDEN, { message: error.message, cause: error })
        throw error
      }
    }
    return true
  })
}

/** The user's sessions stop having the organization active (the organization plugin does the same on removal). */
async function clearActiveOrganization(context: WriteContext, tx: Store, userId: string): Promise<void> {
  const where = [
    { field: 'userId', value: userId },
    { field: 'activeOrganizationId', value: context.organizationId },
  ]
  const sessions = await tx.findMany<Row & { id: string; updatedAt: Date }>({ model: 'session', where })
  const cleared: Row = 'activeTeamId' in (context.auth.schema.session?.fields ?? {}) ? { activeOrganizationId: null, activeTeamId: null } : { activeOrganizationId: null }
  for (const session of sessions) {
    // updatedAt kept: losing the active organization is not a session refresh (docs/sessions.md#lifetimes-seconds).
    await tx.update({ model: 'session', where: { field: 'id', value: session.id }, update: { ...cleared, updatedAt: session.updatedAt } })
  }
}
