/**
 * @module
 * The user's claims by scope (OpenID Connect Core §5.4): `sub` always;
 * `email`, `email_verified` with email; `name`, `picture`, `given_name`,
 * `family_name` with profile; plus the application's own claims. The user
 * has one `name`: the given name is its first word, the family name the rest.
 * Claims without a value are left out rather than sent as null.
 */
import type { User } from '@gatehouse/core'
import type { OAuthClient, ResolvedOidcOptions } from '../options.js'

/**
 * @example
 * await userClaims(options, user, ['openid', 'email'], client) // { sub, email, email_verified }
 */
export async function userClaims(
  options: ResolvedOidcOptions,
  user: User,
  scopes: readonly string[],
  client: OAuthClient,
): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {}
  if (scopes.includes('profile')) {
    const name = user.name.trim()
    if (name) {
      claims.name = name
      const [given, ...family] = name.split(/\s+/)
      claims.given_name = given
      if (family.length > 0) claims.family_name = family.join(' ')
    }
    if (user.image) claims.picture = user.image
  }
  if (scopes.includes('email')) {
    claims.email = user.email
    claims.email_verified = Boolean(user.emailVerified)
  }
  const extra = options.getAdditionalUserInfoClaims ? await options.getAdditionalUserInfoClaims(user, scopes, client) : {}
  // `sub` last: an application claim can never change whom the answer is about.
  return { ...claims, ...extra, sub: user.id }
}
