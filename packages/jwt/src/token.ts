/**
 * @module
 * A session's JWT (docs/jwt.md#claims): `sub` (the user id, or `getSubject`),
 * `email`, `email_verified`, `name`, with the organization plugin the
 * session's active organization (`org_id`) and the member's role in it
 * (`org_role`, read from the member row, not from the session: a demotion
 * shows in the next token), whatever `definePayload` adds, and `iss`, `aud`,
 * `iat`, `exp`. Signed with core's shared keys, `typ: JWT`.
 */
import { AuthError, signingKeys, type AuthContext, type Row, type SessionWithUser, type Store } from '@gatehouse/core'
import { JwtErrors } from './errors.js'
import type { ResolvedJwtOptions } from './options.js'

/** Claims `definePayload` may not set: the token's own frame. */
const REGISTERED = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'sub'])

export function issuerOf(auth: Pick<AuthContext, 'origin'>, options: ResolvedJwtOptions): string {
  return options.issuer ?? auth.origin
}

export function audienceOf(auth: Pick<AuthContext, 'origin'>, options: ResolvedJwtOptions): string | readonly string[] {
  return options.audience ?? auth.origin
}

async function organizationClaims(ctx: { readonly auth: AuthContext; readonly db: Store }, data: SessionWithUser): Promise<Record<string, string>> {
  const organizationId = data.session.activeOrganizationId
  if (typeof organizationId !== 'string' || !ctx.auth.schema.member) return {}
  const member = await ctx.db.findOne<Row & { role: string }>({
    model: 'member',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', value: data.user.id },
    ],
  })
  // Removed from the organization since it became active: no organization in the token.
  if (!member) return {}
  return { org_id: organizationId, org_role: member.role }
}

/**
 * @example
 * const token = await sessionJwt(ctx, resolved, ctx.session)
 */
export async function sessionJwt(ctx: { readonly auth: AuthContext; readonly db: Store }, options: ResolvedJwtOptions, data: SessionWithUser): Promise<string> {
  const extra = options.definePayload ? await options.definePayload(data) : {}
  for (const claim of Object.keys(extra)) if (REGISTERED.has(claim)) throw new AuthError(JwtErrors.JWT_CLAIM_RESERVED)
  const now = Math.floor(ctx.auth.clock.now().getTime() / 1000)
  const subject = options.getSubject ? await options.getSubject(data) : data.user.id
  return signingKeys(ctx.auth).sign(
    {
      email: data.user.email,
      email_verified: data.user.emailVerified,
      name: data.user.name,
      ...(await organizationClaims(ctx, data)),
      ...extra,
      sub: subject,
      iss: issuerOf(ctx.auth, options),
      aud: audienceOf(ctx.auth, options) as string | string[],
      iat: now,
      exp: now + options.expiresIn,
    },
    { alg: options.alg },
  )
}
