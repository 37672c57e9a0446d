/**
 * @module
 * The end of every SSO sign-in, OIDC and SAML alike (docs/sso.md#signing-in):
 * the domain rules, just-in-time provisioning, the membership, the session.
 * Callers (oidc/*, saml/*) have validated the IdP's answer and built an
 * `SsoProfile`; this decides who that is here.
 *
 * The rules, in order:
 *
 * 1. The profile's email must be at exactly the provider's domain
 *    (domains/email-domain.ts): a provider of domain A never signs in anyone
 *    of domain B, whatever its IdP asserts.
 * 2. With `domainVerification.required` (the default), nothing signs in
 *    through a provider whose domain is not verified.
 * 3. An account already linked for (providerId, accountId) signs its user in,
 *    even if the address the IdP now sends changed (people change names; the
 *    `sub` / NameID is the identity), as long as it is still at the domain.
 *    Its user, created unverified while the domain was not, gets the address
 *    verified (the proof of the mailbox below) at its first sign-in once the
 *    domain is.
 * 4. An existing user of that email is linked and signed in only when the
 *    domain is verified: before, the provider has proven nothing about that
 *    address, and linking would hand an existing account to whoever
 *    registered the domain first. A user whose address was not yet verified
 *    is first made its only owner (core's proof of the mailbox: earlier
 *    sessions, password and links go), since the verified domain's IdP vouches
 *    for the mailbox. `account.accountLinking.enabled: false` refuses linking.
 * 5. Otherwise a new user is created, email verified only when the domain is
 *    (an unverified provider's users can be taken back by whoever proves the
 *    mailbox later); `disableImplicitSignUp` needs `requestSignUp`.
 * 6. The user becomes a member of the provider's organization with the
 *    mapped role (services/role-mapping.ts), within its membership limit. An
 *    existing member keeps their role: roles granted in the application
 *    (owner above all) must not be rewritten by a group claim at each sign-in,
 *    which could also leave an organization without an owner. Syncing roles
 *    from the IdP is the application's to do, in an organization hook.
 * 7. Two-factor: see {@link twoFactorStep}. With the provider's policy
 *    `require`, a user with Gatehouse's two-factor on gets no session here:
 *    the writes above commit, the two-factor plugin's pending sign-in starts,
 *    and the browser goes to `twoFactorPage`; the code creates the session.
 *
 * Everything that writes (user, account, proof of the mailbox, member,
 * session) happens in one transaction, which first locks the provider row
 * and re-reads it: a provider deleted, re-pointed to another domain or
 * un-verified since the flow started refuses the sign-in, and its deletion
 * either sees this session (and ends it) or runs after the refusal. The
 * session goes through core's `createSession` under the user's credential
 * version read before the transaction, so a revocation (sign-out everywhere,
 * a ban, a password reset) committing meanwhile refuses it; a ban is refused
 * by the admin plugin's hook on session creation. Two first sign-ins of one
 * person racing each other meet the unique indexes; the loser starts over and
 * finds the winner's rows.
 *
 * The answer is always a redirect: to `newUserURL` (a new user) or
 * `callbackURL`; to `twoFactorPage?callbackURL=<that landing>` for the second
 * step; or to `errorURL` (else core's error page) with `?error=<code>`
 * (`SsoSignInErrorCode`).
 */
import {
  appendQueryParam,
  createSession,
  errorRedirect,
  isAuthError,
  isUniqueViolation,
  mirrorSession,
  normalizeEmail,
  proveMailbox,
  requireCredentialVersion,
  setSessionCookies,
  type CreatedSession,
  type EndpointContext,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { isEmailAtDomain } from '../domains/email-domain.js'
import type { SsoSignInErrorCode } from '../errors.js'
import { ssoOptionsOf, type ResolvedSsoOptions } from '../options.js'
import type { ProviderRow } from '../schema.js'
import type { SsoLanding, SsoProfile, StoredProvider } from '../types.js'
import { organizationAuthority } from './access.js'
import { mappedRoles } from './role-mapping.js'
import { secondStepOf, type SecondStep } from './second-factor.js'

/** How many times a sign-in starts over after losing a create race. */
const ATTEMPTS = 3

/** Thrown inside the transaction to roll it back and answer `code`. */
class Refusal extends Error {
  constructor(readonly code: SsoSignInErrorCode) {
    super(code)
  }
}

/** Thrown inside the transaction when what was read before it changed: roll back and look again. */
class StartOver extends Error {}

interface LinkedAccount extends Row {
  id: string
  userId: string
}

type Plan =
  | { readonly kind: 'linked'; readonly account: LinkedAccount; readonly user: User }
  | { readonly kind: 'link'; readonly user: User }
  | { readonly kind: 'create' }

/** The user and the page of a sign-in that waits for Gatehouse's second factor. */
interface PendingSecondStep {
  readonly step: SecondStep
  readonly page: string
}

type Outcome =
  | { readonly ok: true; readonly session: CreatedSession; readonly isNewUser: boolean }
  | { readonly ok: true; readonly secondStep: PendingSecondStep; readonly user: User; readonly isNewUser: boolean }
  | { readonly ok: false; readonly code: string }

/**
 * Signs `profile` in through `provider` and answers the redirect that ends
 * the browser's flow.
 *
 * @example
 * // In a callback, once the ID Token or the assertion is validated:
 * const profile = { accountId: claims.sub, email: claims.email, emailVerified: claims.email_verified ?? null, name: claims.name ?? '', raw: claims }
 * return completeSsoSignIn(ctx, provider, profile, state.landing) // 302 to callbackURL, or errorURL?error=<code>
 */
/** What the organization plugin's refusal to add the member means to the person signing in. */
const MEMBERSHIP_REFUSALS = {
  'limit-reached': 'organization_membership_limit_reached',
  'unknown-role': 'role_not_found',
  // Suspended by the organization's directory (SCIM `active: false`, docs/scim.md): no way in until restored.
  'member-suspended': 'member_suspended',
  // The organization went while the sign-in ran.
  'organization-not-found': 'provider_changed',
} as const satisfies Record<string, SsoSignInErrorCode>

export async function completeSsoSignIn(ctx: EndpointContext, provider: StoredProvider, profile: SsoProfile, landing: SsoLanding): Promise<Response> {
  let outcome: Outcome
  try {
    outcome = await signIn(ctx, ssoOptionsOf(ctx.auth), provider, profile, landing)
    if (outcome.ok && 'secondStep' in outcome) {
      // After the commit: the pending cookie must not name a sign-in whose writes rolled back.
      await outcome.secondStep.step.startPendingSignIn(ctx, outcome.user, {
        amr: ['fed'],
        sessionFields: { ssoProviderId: provider.providerId },
        // An SSO sign-in has no remember-me choice, as below.
        rememberMe: true,
      })
    }
  } catch (error) {
    // Even a database fault ends in a redirect, not a JSON 500 in the middle of a browser flow.
    ctx.logger.error('sso sign-in failed', { providerId: provider.providerId, error: error instanceof Error ? error.name : typeof error })
    outcome = { ok: false, code: 'internal_server_error' }
  }
  if (!outcome.ok) {
    ctx.logger.info('sso sign-in refused', { providerId: provider.providerId, code: outcome.code })
    return errorRedirect(ctx, outcome.code, landing.errorURL)
  }
  const target = outcome.isNewUser && landing.newUserURL ? landing.newUserURL : landing.callbackURL
  // The page verifies the code (the pending cookie says whose), then goes on to where the sign-in lands.
  if ('secondStep' in outcome) return ctx.redirect(appendQueryParam(outcome.secondStep.page, 'callbackURL', target))
  await mirrorSession(ctx.auth, outcome.session)
  // An SSO sign-in has no remember-me choice: a do-not-remember cookie of an earlier sign-in does not carry over.
  setSessionCookies(ctx, outcome.session, { dontRemember: false })
  return ctx.redirect(target)
}

async function signIn(
  ctx: EndpointContext,
  options: ResolvedSsoOptions,
  provider: StoredProvider,
  profile: SsoProfile,
  landing: SsoLanding,
): Promise<Outcome> {
  const email = normalizeEmail(profile.email)
  if (!email) return { ok: false, code: 'invalid_email' }
  if (!isEmailAtDomain(email, provider.domain)) return { ok: false, code: 'email_domain_mismatch' }
  if (!provider.domainVerified && options.domainVerification.required) return { ok: false, code: 'domain_not_verified' }
  const roles = await mappedRoles(options, profile, provider)

  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const plan = await planSignIn(ctx, provider, profile, email)
    if ('code' in plan) return { ok: false, code: plan.code }
    if (plan.kind === 'create' && options.disableImplicitSignUp && !landing.requestSignUp) return { ok: false, code: 'signup_disabled' }
    try {
      return await ctx.db.transaction((tx) => commit(ctx, tx, { options, provider, profile, email, roles, plan }))
    } catch (error) {
      if (error instanceof Refusal) return { ok: false, code: error.code }
      if (error instanceof StartOver || isUniqueViolation(error)) continue
      // A session hook's refusal (the admin plugin's ban) or a revocation since the user was read.
      if (isAuthError(error)) return { ok: false, code: error.code.toLowerCase() }
      throw error
    }
  }
  return { ok: false, code: 'unable_to_create_user' }
}

/** Who the profile is here, read before the transaction (its credential version is the one the session is checked against). */
async function planSignIn(
  ctx: EndpointContext,
  provider: StoredProvider,
  profile: SsoProfile,
  email: string,
): Promise<Plan | { readonly code: SsoSignInErrorCode }> {
  const account = await ctx.db.findOne<LinkedAccount>({
    model: 'account',
    where: [
      { field: 'providerId', value: provider.providerId },
      { field: 'accountId', value: profile.accountId },
    ],
  })
  if (account) {
    const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: account.userId } })
    if (!user) return { code: 'unable_to_create_user' }
    return { kind: 'linked', account, user }
  }
  const existing = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
  if (!existing) return { kind: 'create' }
  if (!provider.domainVerified || ctx.options.account?.accountLinking?.enabled === false) return { code: 'account_not_linked' }
  return { kind: 'link', user: existing }
}

/**
 * What the provider's two-factor policy asks of this sign-in, inside its
 * transaction once the user is provisioned (docs/sso.md#two-factor): null to
 * sign in now, the second step to start, or a refusal.
 *
 * - `skip` (the default): nothing; the IdP's own authentication is trusted.
 * - `require`, with the two-factor plugin: the second step when the two-factor
 *   plugin says this browser must pass it (two-factor on, and no live "trust
 *   this device" cookie: a device the user trusted after a code skips the
 *   step, as for a password sign-in, docs/two-factor.md#for-other-plugins).
 *   Without `twoFactorPage` there is nowhere to ask for the code: refused,
 *   never signed in as if the policy were `skip`.
 * - `require` without the two-factor plugin: no user can have two-factor on,
 *   so there is nothing to ask; a user row still saying so (the plugin was
 *   removed) is refused rather than let through without the factor the
 *   organization asked for.
 */
async function twoFactorStep(ctx: EndpointContext, tx: Store, options: ResolvedSsoOptions, provider: StoredProvider, user: User): Promise<PendingSecondStep | null> {
  if (provider.twoFactor !== 'require') return null
  const step = secondStepOf(ctx.auth)
  if (!step) {
    if (user.twoFactorEnabled === true) throw new Refusal('two_factor_required')
    return null
  }
  if (!(await step.challenged(ctx, tx, user.id))) return null
  if (!options.twoFactorPage) {
    ctx.logger.error('sso: a provider requires two-factor but sso() has no twoFactorPage', { providerId: provider.providerId })
    throw new Refusal('two_factor_required')
  }
  return { step, page: options.twoFactorPage }
}

async function commit(
  ctx: EndpointContext,
  tx: Store,
  input: { options: ResolvedSsoOptions; provider: StoredProvider; profile: SsoProfile; email: string; roles: readonly string[]; plan: Plan },
): Promise<Outcome> {
  const { options, provider, profile, email, roles, plan } = input
  // The provider as it is now: deleted, moved to another domain or no longer verified since the flow started, it signs nobody in.
  const locked = await tx.lock<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'id', value: provider.id } })
  if (!locked || locked.providerId !== provider.providerId || locked.domain !== provider.domain || (locked.domainVerified === true) !== provider.domainVerified) {
    throw new Refusal('provider_changed')
  }

  let user: User
  let credentialVersion: string | null
  let isNewUser = false
  const keepAccount = { providerId: provider.providerId, accountId: profile.accountId }
  if (plan.kind === 'linked') {
    const still = await tx.findOne<LinkedAccount>({ model: 'account', where: { field: 'id', value: plan.account.id } })
    if (!still || still.userId !== plan.user.id) throw new StartOver()
    // A user this provider created before its domain was verified: the verified domain now vouches for the address.
    user = provider.domainVerified && plan.user.email === email ? await proven(ctx, tx, plan.user, keepAccount) : plan.user
    credentialVersion = (user.credentialVersion as string | null | undefined) ?? null
  } else if (plan.kind === 'link') {
    await tx.create({ model: 'account', data: { providerId: provider.providerId, accountId: profile.accountId, userId: plan.user.id } })
    user = await proven(ctx, tx, plan.user, keepAccount)
    credentialVersion = (user.credentialVersion as string | null | undefined) ?? null
  } else {
    const created = await tx.create<User & Row>({
      model: 'user',
      data: { name: profile.name.trim() || email, email, emailVerified: provider.domainVerified, image: profile.image ?? null },
    })
    await tx.create({ model: 'account', data: { providerId: provider.providerId, accountId: profile.accountId, userId: created.id } })
    user = created
    credentialVersion = (created.credentialVersion as string | null | undefined) ?? null
    isNewUser = true
  }

  const membership = await organizationAuthority(ctx.auth).provisionMember(tx, { organizationId: provider.organizationId, userId: user.id, role: roles })
  if (!membership.ok) {
    if (membership.reason === 'unknown-role') {
      ctx.logger.error('sso: organizationProvisioning gives a role the organization does not define', { providerId: provider.providerId, roles })
    }
    throw new Refusal(MEMBERSHIP_REFUSALS[membership.reason])
  }

  // A new user cannot have two-factor on yet.
  const secondStep = isNewUser ? null : await twoFactorStep(ctx, tx, options, provider, user)
  if (secondStep) {
    // No session to check it here: the user row must still hold the version read before the IdP's answer was
    // acted on, as createSession would require; the code's session is then created under that same version.
    await requireCredentialVersion(tx, user.id, credentialVersion)
    return { ok: true, secondStep, user, isNewUser }
  }

  const session = await createSession(ctx.auth, user, {
    db: tx,
    mirror: false,
    credentialVersion,
    amr: ['fed'],
    ipAddress: ctx.ip,
    userAgent: ctx.headers.get('user-agent'),
    fields: { ssoProviderId: provider.providerId },
  })
  return { ok: true, session, isNewUser }
}

/**
 * `user` made the only owner of its address when it was not verified yet
 * (core's proof of the mailbox: earlier sessions, password and other links go,
 * `keepAccount` stays); a verified user as it is.
 */
async function proven(ctx: EndpointContext, tx: Store, user: User, keepAccount: { providerId: string; accountId: string }): Promise<User> {
  if (user.emailVerified) return user
  const owner = await proveMailbox(ctx.auth, { user, db: tx, keepAccount })
  // The address moved away since it was read: the proof was for the old one.
  if (!owner) throw new StartOver()
  return owner
}
