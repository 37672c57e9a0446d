/**
 * @module
 * Find or create the user behind a provider account (docs/social.md#account-linking).
 * Expected failures are values (`{ ok: false, reason }`); the routes turn
 * them into an error redirect or a JSON error.
 *
 * - A known provider account signs its user in; its stored tokens are replaced.
 * - An email that belongs to a user links the provider account to that user
 *   only when linking is on and the provider vouches for the address (it is
 *   trusted, or says the address is verified). When the user's own address
 *   was not yet verified, that vouched sign-in is the first proof of the
 *   mailbox: the address becomes verified and whatever an earlier registrant
 *   set up (sessions, password, other links, grants) goes
 *   (session/prove-mailbox.ts, docs/security.md#pre-registration-whoever-proves-the-mailbox-owns-the-account).
 * - Otherwise a new user and account are created together, in one
 *   transaction, unless sign-up is off for the provider, and only under an
 *   address the provider vouches for: a provider that lets anyone type any
 *   address must not create the account of that address's owner
 *   (docs/social.md#which-providers-vouch-for-the-address).
 *
 * Races are settled by the unique indexes (`user.email`,
 * `account.(providerId, accountId)`): a create that loses to a concurrent one
 * starts over and then finds the winner's rows, so twenty concurrent first
 * sign-ins of one person make one user.
 */
import { normalizeEmail } from '../accounts/email.js'
import { findUserByEmail, findUserById, type Account } from '../accounts/users.js'
import { isUniqueViolation, type Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { AuthContext } from '../endpoint/context.js'
import { proveMailbox } from '../session/prove-mailbox.js'
import type { User } from '../types/rows.js'
import type { ConfiguredProvider, ProviderTokens, ProviderUserInfo } from '../types/social.js'
import { encryptToken } from './token-crypto.js'

/** An account row with the provider token columns. */
export interface SocialAccount extends Account {
  accessToken: string | null
  refreshToken: string | null
  idToken: string | null
  accessTokenExpiresAt: Date | null
  refreshTokenExpiresAt: Date | null
}

type Ctx = Pick<AuthContext, 'db' | 'secrets' | 'options'>
/** Sign-in may prove a mailbox, which ends sessions and tells the plugins: it needs the whole context. */
type SignInCtx = Ctx & { readonly auth: AuthContext; readonly logger: AuthContext['logger'] }

export type SignInOutcome =
  | { readonly ok: true; readonly user: User; readonly isNewUser: boolean }
  | { readonly ok: false; readonly reason: 'account_not_linked' | 'signup_disabled' | 'unable_to_create_user' }

export type LinkOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'account_already_linked_to_different_user' | 'unable_to_link_account' }

/** Thrown inside a linking transaction when the user's address changed since it was read: roll back and look again. */
class AddressMoved extends Error {}

/** How many times a sign-in starts over after losing a create race. */
const ATTEMPTS = 3

export function findSocialAccount(db: Store, providerId: string, accountId: string): Promise<SocialAccount | null> {
  return db.findOne<SocialAccount & Row>({
    model: 'account',
    where: [
      { field: 'providerId', value: providerId },
      { field: 'accountId', value: accountId },
    ],
  })
}

/**
 * The token columns of an account row, encrypted. A token the provider did
 * not send again (Google sends a refresh token only at first consent) is left
 * out, so an update keeps the stored one.
 */
export async function tokenColumns(ctx: Pick<AuthContext, 'secrets'>, providerId: string, accountId: string, tokens: ProviderTokens): Promise<Row> {
  const binding = { providerId, accountId }
  const columns: Row = { scope: tokens.scopes.join(',') }
  if (tokens.accessToken) {
    columns.accessToken = await encryptToken(ctx.secrets, 'accessToken', binding, tokens.accessToken)
    columns.accessTokenExpiresAt = tokens.accessTokenExpiresAt
  }
  if (tokens.refreshToken) {
    columns.refreshToken = await encryptToken(ctx.secrets, 'refreshToken', binding, tokens.refreshToken)
    columns.refreshTokenExpiresAt = tokens.refreshTokenExpiresAt
  }
  if (tokens.idToken) columns.idToken = await encryptToken(ctx.secrets, 'idToken', binding, tokens.idToken)
  return columns
}

function linkingSettings(ctx: Ctx) {
  const linking = ctx.options.account?.accountLinking
  return {
    enabled: linking?.enabled !== false,
    trusted: new Set(linking?.trustedProviders ?? []),
    allowDifferentEmails: linking?.allowDifferentEmails === true,
  }
}

/**
 * The sign-in half of the callback and of ID-token sign-in.
 *
 * @example
 * const outcome = await signInWithProvider(ctx, provider, info, tokens, { requestSignUp: false })
 * if (!outcome.ok) return errorRedirect(outcome.reason)
 */
export async function signInWithProvider(
  ctx: SignInCtx,
  provider: ConfiguredProvider,
  info: ProviderUserInfo & { email: string },
  tokens: ProviderTokens,
  options: { requestSignUp: boolean },
): Promise<SignInOutcome> {
  const providerId = provider.id
  const columns = await tokenColumns(ctx, providerId, info.id, tokens)
  const linking = linkingSettings(ctx)
  const vouched = linking.trusted.has(providerId) || info.emailVerified
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const account = await findSocialAccount(ctx.db, providerId, info.id)
    if (account) {
      const user = await findUserById(ctx.db, account.userId)
      if (!user) return { ok: false, reason: 'unable_to_create_user' }
      await ctx.db.update({ model: 'account', where: { field: 'id', value: account.id }, update: columns })
      // The provider vouches for the address of an identity this user already owns: a proof of the mailbox.
      if (vouched && !user.emailVerified && normalizeEmail(info.email) === user.email) {
        const keepAccount = { providerId, accountId: info.id }
        const proven = await ctx.db.transaction((tx) => proveMailbox(ctx.auth, { user, db: tx, keepAccount }))
        return { ok: true, user: proven ?? user, isNewUser: false }
      }
      return { ok: true, user, isNewUser: false }
    }

    const existing = await findUserByEmail(ctx.db, info.email)
    if (existing) {
      if (!linking.enabled || !vouched) return { ok: false, reason: 'account_not_linked' }
      let user: User
      try {
        user = await ctx.db.transaction(async (tx) => {
          // An unverified owner: this sign-in proves the mailbox, so what was set up before it goes first.
          const proven = existing.emailVerified ? existing : await proveMailbox(ctx.auth, { user: existing, db: tx })
          if (!proven) throw new AddressMoved()
          await tx.create({ model: 'account', data: { providerId, accountId: info.id, userId: existing.id, ...columns } })
          return proven
        })
      } catch (error) {
        // A concurrent link of this account, or the address moved away: look again.
        if (isUniqueViolation(error) || error instanceof AddressMoved) continue
        throw error
      }
      return { ok: true, user, isNewUser: false }
    }

    if (provider.config.disableSignUp || (provider.config.disableImplicitSignUp && !options.requestSignUp)) {
      return { ok: false, reason: 'signup_disabled' }
    }
    if (!vouched) {
      ctx.logger.warn('social sign-in: no user created, the provider does not vouch for the address (docs/social.md#which-providers-vouch-for-the-address)', { provider: providerId })
      return { ok: false, reason: 'unable_to_create_user' }
    }
    const mapped = provider.config.mapProfileToUser ? await provider.config.mapProfileToUser(info) : {}
    try {
      const user = await ctx.db.transaction(async (tx) => {
        const created = await tx.create<User & Row>({
          model: 'user',
          data: {
            name: info.name,
            image: info.image,
            ...mapped,
            email: info.email,
            emailVerified: info.emailVerified,
          },
        })
        await tx.create({ model: 'account', data: { providerId, accountId: info.id, userId: created.id, ...columns } })
        return created
      })
      return { ok: true, user, isNewUser: true }
    } catch (error) {
      // Another callback created this user or account first: start over and find it.
      if (isUniqueViolation(error)) continue
      return { ok: false, reason: 'unable_to_create_user' }
    }
  }
  return { ok: false, reason: 'unable_to_create_user' }
}

/**
 * The link-social half: adds the provider account to `user`, who is signed
 * in. The email rule (`allowDifferentEmails`) is the caller's, which knows
 * whether it checked it already.
 */
export async function linkToUser(
  ctx: Ctx,
  provider: ConfiguredProvider,
  info: ProviderUserInfo,
  tokens: ProviderTokens,
  userId: string,
): Promise<LinkOutcome> {
  const columns = await tokenColumns(ctx, provider.id, info.id, tokens)
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const account = await findSocialAccount(ctx.db, provider.id, info.id)
    if (account) {
      if (account.userId !== userId) return { ok: false, reason: 'account_already_linked_to_different_user' }
      await ctx.db.update({ model: 'account', where: { field: 'id', value: account.id }, update: columns })
      return { ok: true }
    }
    try {
      await ctx.db.create({ model: 'account', data: { providerId: provider.id, accountId: info.id, userId, ...columns } })
      return { ok: true }
    } catch (error) {
      if (isUniqueViolation(error)) continue
      return { ok: false, reason: 'unable_to_link_account' }
    }
  }
  return { ok: false, reason: 'unable_to_link_account' }
}

/** The link-social rules that do not depend on the stored rows (docs/social.md#linking-an-account). */
export function linkRefusal(
  ctx: Ctx,
  provider: ConfiguredProvider,
  info: ProviderUserInfo,
  user: Pick<User, 'email'>,
): 'linking_not_allowed' | 'different_emails' | null {
  const linking = linkingSettings(ctx)
  if (!linking.enabled) return 'linking_not_allowed'
  if (!linking.trusted.has(provider.id) && !info.emailVerified) return 'linking_not_allowed'
  if (!linking.allowDifferentEmails && normalizeEmail(info.email) !== user.email) return 'different_emails'
  return null
}
