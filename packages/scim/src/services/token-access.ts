/**
 * @module
 * Who may manage an organization's SCIM tokens (docs/scim.md#tokens): a
 * member whose roles grant everything a token can do, creating, updating
 * and deleting members (and teams, with groups on): owners and admins with
 * the default roles. Asking for the token's own powers means a token never
 * gives its maker more than they had. The question goes to the organization
 * plugin's `authorize`, so the application's roles and run-time roles count
 * as in its own routes. An admin's impersonation session is refused: a
 * long-lived credential must not be minted in someone else's name.
 */
import { AuthError, type AuthContext, type SessionWithUser, type Store } from '@gatehouse/core'
import { ScimErrors } from '../errors.js'
import type { ResolvedScimOptions } from '../options.js'
import { organizationAuthority } from './organization.js'

const ACTIONS = ['create', 'update', 'delete'] as const

/** The permissions a token manager must hold. */
export function tokenPermissions(options: Pick<ResolvedScimOptions, 'groups'>): Record<string, readonly string[]> {
  return options.groups ? { member: ACTIONS, team: ACTIONS } : { member: ACTIONS }
}

/**
 * Throws 403 unless the session's user may manage `organizationId`'s tokens.
 *
 * @example
 * await requireTokenManager(ctx, options, ctx.session, body.organizationId)
 */
export async function requireTokenManager(
  ctx: { readonly db: Store; readonly auth: Pick<AuthContext, 'plugins'> },
  options: Pick<ResolvedScimOptions, 'groups'>,
  session: SessionWithUser,
  organizationId: string,
): Promise<void> {
  const impersonatedBy = session.session.impersonatedBy
  if (typeof impersonatedBy === 'string' && impersonatedBy !== '') throw new AuthError(ScimErrors.IMPERSONATION_NOT_ALLOWED)
  const verdict = await organizationAuthority(ctx.auth).authorize(ctx.db, { organizationId, userId: session.user.id, permissions: tokenPermissions(options) })
  if (verdict.ok) return
  throw new AuthError(verdict.reason === 'not-member' ? ScimErrors.YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION : ScimErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM_TOKENS)
}
