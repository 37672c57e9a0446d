/**
 * @module
 * Who may manage a key (docs/api-key.md#organization-keys). A user's key:
 * that user only; anyone else gets 404, as for a key that does not exist, so
 * key ids reveal nothing. An organization's key: its members whose roles grant
 * the action on the `apiKey` resource of the organization's access control
 * (owners and admins by default, run-time roles counted as the organization's
 * routes count them); outsiders get 404, members without the right 403.
 */
import { AuthError, type AuthContext, type Store } from '@gatehouse/core'
import { ApiKeyErrors } from '../errors.js'
import type { ApiKeyRow } from '../schema.js'
import type { Statements } from './permissions.js'

export type KeyAction = 'create' | 'read' | 'update' | 'delete'

type Ctx = { readonly db: Store; readonly auth: Pick<AuthContext, 'plugins'> }

interface Authority {
  authorize(
    db: Store,
    input: { readonly organizationId: string; readonly userId: string; readonly permissions: Statements },
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: 'not-member' | 'forbidden' }>
}

/**
 * The organization plugin's permission check, loaded only when the
 * application registered that plugin (an optional peer: an application
 * without organizations never imports it).
 */
async function authority(ctx: Ctx): Promise<Authority> {
  if (!ctx.auth.plugins.some((plugin) => plugin.id === 'organization')) throw new AuthError(ApiKeyErrors.ORGANIZATION_PLUGIN_REQUIRED)
  const { findOrganizationAuthority } = await import('@gatehouse/organization')
  const found = findOrganizationAuthority(ctx.auth)
  if (!found) throw new AuthError(ApiKeyErrors.ORGANIZATION_PLUGIN_REQUIRED)
  return found
}

/**
 * Throws unless `userId` may do `action` on the API keys of `organizationId`.
 *
 * @example
 * await requireOrganizationRight(ctx, { organizationId, userId, action: 'create' })
 */
export async function requireOrganizationRight(
  ctx: Ctx,
  input: { readonly organizationId: string; readonly userId: string; readonly action: KeyAction },
): Promise<void> {
  const verdict = await (await authority(ctx)).authorize(ctx.db, {
    organizationId: input.organizationId,
    userId: input.userId,
    permissions: { apiKey: [input.action] },
  })
  if (verdict.ok) return
  throw new AuthError(verdict.reason === 'not-member' ? ApiKeyErrors.USER_NOT_MEMBER_OF_ORGANIZATION : ApiKeyErrors.INSUFFICIENT_API_KEY_PERMISSIONS)
}

/**
 * Throws unless `userId` holds every permission in `permissions` in the
 * organization: a key made by a member never grants more than that member has.
 */
export async function requireWithinCreator(
  ctx: Ctx,
  input: { readonly organizationId: string; readonly userId: string; readonly permissions: Statements },
): Promise<void> {
  if (Object.keys(input.permissions).length === 0) return
  const verdict = await (await authority(ctx)).authorize(ctx.db, input)
  if (!verdict.ok) throw new AuthError(ApiKeyErrors.PERMISSIONS_EXCEED_CREATOR)
}

/**
 * The key row once `userId` may do `action` on it.
 *
 * @example
 * const row = await requireKeyAccess(ctx, { keyId: body.keyId, userId: session.user.id, action: 'delete' })
 */
export async function requireKeyAccess(
  ctx: Ctx,
  row: ApiKeyRow | null,
  input: { readonly userId: string; readonly action: KeyAction },
): Promise<ApiKeyRow> {
  if (!row) throw new AuthError(ApiKeyErrors.KEY_NOT_FOUND)
  if (row.referenceType !== 'organization') {
    if (row.referenceId !== input.userId) throw new AuthError(ApiKeyErrors.KEY_NOT_FOUND)
    return row
  }
  try {
    await requireOrganizationRight(ctx, { organizationId: row.referenceId, userId: input.userId, action: input.action })
  } catch (error) {
    // Which organization holds a key is not an outsider's business.
    if (error instanceof AuthError && error.code === 'USER_NOT_MEMBER_OF_ORGANIZATION') throw new AuthError(ApiKeyErrors.KEY_NOT_FOUND)
    throw error
  }
  return row
}
