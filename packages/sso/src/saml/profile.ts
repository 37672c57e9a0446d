/**
 * @module
 * From a verified assertion to the profile a sign-in works with
 * (docs/sso.md#saml-attributes). Everything read here comes from node-saml's
 * profile, which it built from the signed assertion only.
 *
 * - accountId: the NameID, or the attribute `mapping.id` names. A transient
 *   NameID changes with every sign-in, so it needs `mapping.id`.
 * - email: the attribute `mapping.email` names; else the NameID when its
 *   format is emailAddress; else `email`, `mail`, the WS-Federation
 *   emailaddress claim (Entra ID, AD FS) or the LDAP mail OID.
 * - name: `mapping.name`, or `mapping.firstName` + `mapping.lastName`; else
 *   a display name attribute, else given name + surname, else the email.
 * - groups: `mapping.groups`, else `groups`, `memberOf` or Entra ID's groups claim.
 * - emailVerified: null (the IdP says nothing) unless `mapping.emailVerified`
 *   names an attribute; the domain rules decide what it counts for.
 */
import type { Profile } from '@node-saml/node-saml'
import type { SamlMapping, SsoProfile } from '../types.js'
import { NAMEID_EMAIL } from './sp.js'

const NAMEID_TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient'

const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3']
const NAME_ATTRIBUTES = ['displayName', 'http://schemas.microsoft.com/identity/claims/displayname', 'name', 'cn', 'urn:oid:2.16.840.1.113730.3.1.241']
const FIRST_NAME_ATTRIBUTES = ['firstName', 'givenName', 'given_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42']
const LAST_NAME_ATTRIBUTES = ['lastName', 'surname', 'sn', 'family_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4']
const GROUP_ATTRIBUTES = ['groups', 'memberOf', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups']

/** Who the assertion is about, for single logout. */
export interface SamlSubject {
  readonly nameID: string
  readonly nameIDFormat: string | null
  readonly sessionIndex: string | null
}

export type ProfileCode = 'missing_name_id' | 'transient_name_id' | 'missing_email'

export type MappedProfile =
  | { readonly ok: true; readonly profile: SsoProfile; readonly subject: SamlSubject }
  | { readonly ok: false; readonly code: ProfileCode }

/**
 * @example
 * const mapped = mapProfile(result.profile, provider.saml.mapping)
 * if (!mapped.ok) return refuse(mapped.code)
 */
export function mapProfile(profile: Profile, mapping: SamlMapping = {}): MappedProfile {
  const attributes = readAttributes(profile.attributes)
  const nameID = typeof profile.nameID === 'string' ? profile.nameID.trim() : ''
  const nameIDFormat = typeof profile.nameIDFormat === 'string' ? profile.nameIDFormat : null
  if (!nameID) return { ok: false, code: 'missing_name_id' }

  const accountId = mapping.id ? firstOf(attributes, [mapping.id]) : nameID
  if (!accountId) return { ok: false, code: 'missing_name_id' }
  if (!mapping.id && nameIDFormat === NAMEID_TRANSIENT) return { ok: false, code: 'transient_name_id' }

  const email = mapping.email
    ? firstOf(attributes, [mapping.email])
    : nameIDFormat === NAMEID_EMAIL && nameID.includes('@')
      ? nameID
      : firstOf(attributes, EMAIL_ATTRIBUTES)
  if (!email || !email.includes('@')) return { ok: false, code: 'missing_email' }

  const joined = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null
  const name =
    (mapping.name ? firstOf(attributes, [mapping.name]) : null) ??
    (mapping.firstName || mapping.lastName
      ? joined(mapping.firstName ? firstOf(attributes, [mapping.firstName]) : null, mapping.lastName ? firstOf(attributes, [mapping.lastName]) : null)
      : null) ??
    firstOf(attributes, NAME_ATTRIBUTES) ??
    joined(firstOf(attributes, FIRST_NAME_ATTRIBUTES), firstOf(attributes, LAST_NAME_ATTRIBUTES)) ??
    email

  const groups = allOf(attributes, mapping.groups ? [mapping.groups] : GROUP_ATTRIBUTES)
  const sessionIndex = typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null
  return {
    ok: true,
    subject: { nameID, nameIDFormat, sessionIndex },
    profile: {
      accountId,
      email,
      emailVerified: mapping.emailVerified ? booleanOf(firstOf(attributes, [mapping.emailVerified])) : null,
      name,
      image: null,
      groups,
      raw: {
        nameID,
        nameIDFormat,
        issuer: typeof profile.issuer === 'string' ? profile.issuer : null,
        sessionIndex,
        attributes,
        ...extraFields(attributes, mapping.extraFields),
      },
    },
  }
}

/** Attribute values as strings: one value or several; values with child elements are dropped. */
function readAttributes(value: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {}
  if (typeof value !== 'object' || value === null) return result
  for (const [name, raw] of Object.entries(value)) {
    const values = (Array.isArray(raw) ? raw : [raw]).filter((item): item is string => typeof item === 'string').map((item) => item.trim())
    if (values.length > 0) result[name] = values
  }
  return result
}

function firstOf(attributes: Record<string, string[]>, names: readonly string[]): string | null {
  for (const name of names) {
    const value = attributes[name]?.find((item) => item !== '')
    if (value) return value
  }
  return null
}

function allOf(attributes: Record<string, string[]>, names: readonly string[]): string[] {
  for (const name of names) {
    const values = attributes[name]?.filter((item) => item !== '')
    if (values && values.length > 0) return values
  }
  return []
}

function booleanOf(value: string | null): boolean | null {
  if (value === null) return null
  const normalized = value.toLowerCase()
  return normalized === 'true' || normalized === '1' ? true : normalized === 'false' || normalized === '0' ? false : null
}

function extraFields(attributes: Record<string, string[]>, fields: Readonly<Record<string, string>> | undefined): Record<string, unknown> {
  if (!fields) return {}
  const extra: Record<string, string | string[]> = {}
  for (const [field, attribute] of Object.entries(fields)) {
    const values = attributes[attribute]
    if (values) extra[field] = values.length === 1 ? (values[0] as string) : values
  }
  return { extraFields: extra }
}
