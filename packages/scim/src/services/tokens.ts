/**
 * @module
 * SCIM bearer tokens (docs/scim.md#tokens). A token is `gatehouse_scim_`
 * and 43 letters and digits from the CSPRNG (about 256 bits): shown once,
 * when generated; the table keeps its SHA-256 only, so a database dump or a
 * read-only SQL injection yields no token that works. A plain hash is enough
 * (no slow KDF): the token is random, not a password, so there is nothing to
 * guess offline. The lookup is by that hash on a unique index.
 *
 * A token belongs to one organization and reaches only its members and
 * teams (services/authenticate.ts). Generating a token for a `providerId`
 * the organization already has replaces the old one in the same transaction
 * (rotation: the old token stops working at the commit).
 */
import { AuthError, sha256Base64url, type AuthContext, type Row, type Store } from '@gatehouse/core'
import { ScimErrors } from '../errors.js'
import type { ResolvedScimOptions } from '../options.js'
import type { TokenRow } from '../schema.js'

export const TOKEN_PREFIX = 'gatehouse_scim_'
const SECRET_LENGTH = 43
/** Characters of a token kept in clear to tell it apart in a list. */
const START_LENGTH = TOKEN_PREFIX.length + 4

export function hashToken(token: string): string {
  return sha256Base64url(token)
}

/** The token as the list and generate routes show it: never the hash. */
export function tokenInfo(row: TokenRow) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    providerId: row.providerId,
    start: row.start,
    createdBy: row.createdBy ?? null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt ?? null,
    lastUsedAt: row.lastUsedAt ?? null,
  }
}

export type TokenInfo = ReturnType<typeof tokenInfo>

/**
 * Stores a new token for (`organizationId`, `providerId`), replacing the one
 * there; answers the token in clear (once) and its row.
 *
 * @example
 * const { token } = await generateToken(ctx.auth, options, { organizationId, providerId: 'okta', createdBy: userId })
 */
export async function generateToken(
  auth: Pick<AuthContext, 'db' | 'random' | 'clock'>,
  options: Pick<ResolvedScimOptions, 'maxTokensPerOrganization' | 'tokenExpiresIn'>,
  input: { readonly organizationId: string; readonly providerId: string; readonly createdBy: string },
): Promise<{ token: string; row: TokenRow }> {
  const token = `${TOKEN_PREFIX}${auth.random.string(SECRET_LENGTH)}`
  const now = auth.clock.now()
  const row = await auth.db.transaction(async (tx) => {
    // Under the organization's lock: two generations cannot both pass the limit, nor both keep a token for one providerId.
    const organization = await tx.lock({ model: 'organization', where: { field: 'id', value: input.organizationId } })
    if (!organization) throw new AuthError(ScimErrors.YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION)
    const ofOrganization = { field: 'organizationId', value: input.organizationId }
    await tx.deleteMany({ model: 'scimToken', where: [ofOrganization, { field: 'providerId', value: input.providerId }] })
    if ((await tx.count({ model: 'scimToken', where: ofOrganization })) >= options.maxTokensPerOrganization) {
      throw new AuthError(ScimErrors.TOO_MANY_SCIM_TOKENS)
    }
    return tx.create<TokenRow>({
      model: 'scimToken',
      data: {
        organizationId: input.organizationId,
        providerId: input.providerId,
        tokenHash: hashToken(token),
        start: token.slice(0, START_LENGTH),
        createdBy: input.createdBy,
        expiresAt: options.tokenExpiresIn === null ? null : new Date(now.getTime() + options.tokenExpiresIn * 1000),
        lastUsedAt: null,
      },
    })
  })
  return { token, row }
}

/** The organization's tokens, oldest first. */
export function listTokens(db: Store, organizationId: string): Promise<TokenRow[]> {
  return db.findMany<TokenRow>({
    model: 'scimToken',
    where: { field: 'organizationId', value: organizationId },
    sortBy: [
      { field: 'createdAt', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
  })
}

export function findTokenById(db: Store, id: string): Promise<TokenRow | null> {
  return db.findOne<TokenRow & Row>({ model: 'scimToken', where: { field: 'id', value: id } })
}

/** How often the `lastUsedAt` of a token in use is written: not on every request of a sync. */
const LAST_USED_RESOLUTION_MS = 60_000

/**
 * The live token row `token` names, or null: unknown, malformed or expired.
 *
 * @example
 * const row = await findLiveToken(ctx.auth, bearer)
 */
export async function findLiveToken(auth: Pick<AuthContext, 'db' | 'clock'>, token: string): Promise<TokenRow | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length !== TOKEN_PREFIX.length + SECRET_LENGTH) return null
  const row = await auth.db.findOne<TokenRow & Row>({ model: 'scimToken', where: { field: 'tokenHash', value: hashToken(token) } })
  const now = auth.clock.now()
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return null
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await auth.db.update({ model: 'scimToken', where: { field: 'id', value: row.id }, update: { lastUsedAt: now } })
  }
  return row
}
