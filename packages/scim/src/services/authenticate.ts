/**
 * @module
 * Who is calling a SCIM route: the organization of the bearer token in the
 * `Authorization` header (RFC 6750 §2.1; never the query string, which ends
 * up in logs). Cookies are never read, so a browser's session cannot call
 * these routes and there is nothing for a cross-site request to ride on
 * (docs/scim.md#security). A missing, unknown or expired token is 401 with
 * the Bearer challenge; the answer does not say which.
 */
import type { AuthContext } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../errors.js'
import { findLiveToken } from './tokens.js'

export interface ScimCaller {
  readonly organizationId: string
  readonly tokenId: string
}

/** The token of `Authorization: Bearer <token>` (scheme in any case), or null. */
export function bearerToken(headers: Headers): string | null {
  const authorization = headers.get('authorization')
  const match = authorization ? /^Bearer +([\x21-\x7e]+)$/i.exec(authorization.trim()) : null
  return match?.[1] ?? null
}

/**
 * @example
 * const { organizationId } = await authenticate(ctx.auth, ctx.headers)
 */
export async function authenticate(auth: Pick<AuthContext, 'db' | 'clock'>, headers: Headers): Promise<ScimCaller> {
  const token = bearerToken(headers)
  const row = token === null ? null : await findLiveToken(auth, token)
  if (!row) throw new ScimError(ScimErrors.INVALID_TOKEN)
  return { organizationId: row.organizationId, tokenId: row.id }
}
