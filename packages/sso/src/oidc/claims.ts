/**
 * @module
 * From an OpenID Provider's claims to the profile the sign-in works with
 * (docs/sso.md#claim-mapping). Each field reads the claim the provider's
 * `mapping` names, else the standard one (OpenID Connect Core §5.1): `sub`,
 * `email`, `email_verified`, `name`, `picture`, and `groups` (not standard;
 * Okta, Entra ID and Keycloak send it under that name when asked to).
 *
 * `email_verified` is read as the provider said it (true, false, or the
 * strings some providers send), null when absent; what it is worth is
 * decided by the domain rules (services/provision.ts), not here.
 */
import type { OidcMapping, SsoProfile } from '../types.js'

type Claims = Readonly<Record<string, unknown>>

export type ProfileResult =
  | { readonly ok: true; readonly profile: SsoProfile }
  | { readonly ok: false; readonly reason: 'id_not_found' | 'email_not_found' }

/**
 * The claim names a mapping reads, for deciding whether the ID Token alone is
 * enough or UserInfo must be asked (oidc/exchange.ts). Image and groups count
 * only when the mapping names them: most providers send neither by default.
 */
export function mappedClaims(mapping: OidcMapping = {}): string[] {
  return [
    mapping.email ?? 'email',
    mapping.emailVerified ?? 'email_verified',
    mapping.name ?? 'name',
    ...(mapping.id ? [mapping.id] : []),
    ...(mapping.image ? [mapping.image] : []),
    ...(mapping.groups ? [mapping.groups] : []),
    ...Object.values(mapping.extraFields ?? {}),
  ]
}

/**
 * @example
 * profileFromClaims({ sub: '00u1', email: 'ada@acme.example', email_verified: true, name: 'Ada' }, {})
 * // { ok: true, profile: { accountId: '00u1', email: 'ada@acme.example', emailVerified: true, name: 'Ada', ... } }
 */
export function profileFromClaims(claims: Claims, mapping: OidcMapping = {}): ProfileResult {
  // A configured id claim that is missing is an error, never a silent fall back to `sub`: the account's identity would shift.
  const accountId = mapping.id ? identifier(claims[mapping.id]) : identifier(claims.sub)
  if (!accountId) return { ok: false, reason: 'id_not_found' }
  const email = text(claims[mapping.email ?? 'email'])
  if (!email) return { ok: false, reason: 'email_not_found' }
  const image = text(claims[mapping.image ?? 'picture'])
  const groups = stringList(claims[mapping.groups ?? 'groups'])
  return {
    ok: true,
    profile: {
      accountId,
      email,
      emailVerified: flag(claims[mapping.emailVerified ?? 'email_verified']),
      name: text(claims[mapping.name ?? 'name']) ?? fallbackName(claims, email),
      image: image ?? null,
      ...(groups ? { groups } : {}),
      raw: claims,
    },
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

/** Some providers send numeric ids (a `sub` is a string by the spec, an `oid` mapping may not be). */
function identifier(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return typeof value === 'string' && value !== '' ? value : null
}

function flag(value: unknown): boolean | null {
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  return null
}

/** An array of strings, or one string: some providers send a single group bare. */
function stringList(value: unknown): string[] | null {
  if (typeof value === 'string') return value === '' ? null : [value]
  if (!Array.isArray(value)) return null
  return value.filter((item): item is string => typeof item === 'string' && item !== '')
}

function fallbackName(claims: Claims, email: string): string {
  const parts = [text(claims.given_name), text(claims.family_name)].filter((part): part is string => part !== null)
  if (parts.length > 0) return parts.join(' ')
  return text(claims.preferred_username) ?? email.slice(0, email.lastIndexOf('@'))
}

/** Google's issuer: one for every Google account, Workspace or consumer (docs/sso.md#google-workspace). */
export const GOOGLE_ISSUER = 'https://accounts.google.com'

/**
 * Why a mapped profile may not sign in through `provider`, or null. Two
 * rules on top of the domain check provisioning makes:
 *
 * - An IdP that says the address is not verified (`email_verified: false`)
 *   is believed: the address is then only what the user typed at the IdP.
 *   An IdP that says nothing (Entra ID) is trusted for its own tenant.
 * - Google's issuer is shared by every Google account, so an address at the
 *   organization's domain proves nothing by itself: only the `hd` (hosted
 *   domain) claim says the account is managed by that Workspace. Without it,
 *   anyone could create a consumer Google account under a work address.
 *
 * @example
 * sharedIssuerRefusal(GOOGLE_ISSUER, 'acme.com', profile) // 'hosted_domain_mismatch' unless profile.raw.hd === 'acme.com'
 */
export function sharedIssuerRefusal(issuer: string, domain: string, profile: SsoProfile): 'email_not_verified' | 'hosted_domain_mismatch' | null {
  if (profile.emailVerified === false) return 'email_not_verified'
  if (issuer.replace(/\/+$/, '') === GOOGLE_ISSUER) {
    const hd = typeof profile.raw.hd === 'string' ? profile.raw.hd.toLowerCase() : null
    if (hd !== domain) return 'hosted_domain_mismatch'
  }
  return null
}
