/**
 * @module
 * Whether an address is under a domain the organization has proven it
 * controls (docs/scim.md#email-verification): a single sign-on provider of
 * this organization (`ssoProvider`, added by @gatehouse/sso) whose domain is
 * verified and equals the address's domain. Read through the store when the
 * model is in the schema; without the SSO plugin no domain is verified.
 *
 * It decides two things. A user the directory creates gets a verified email
 * only then (otherwise a directory could hand out addresses it does not
 * control, and they would count as proven mailboxes). And an existing user
 * who belongs to no organization of the directory's is taken into it only
 * then: anywhere else, a token holder could pull any account into its
 * organization by naming its address.
 */
import type { AuthContext, Row, Store } from '@gatehouse/core'

/** The address's domain as the SSO plugin stores domains: lowercase ASCII (punycode). */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at < 0) return null
  try {
    return new URL(`http://${email.slice(at + 1)}`).hostname || null
  } catch {
    return null
  }
}

/**
 * @example
 * await hasVerifiedDomain(ctx.auth, tx, organizationId, 'ada@acme.com') // true once acme.com is verified for the organization
 */
export async function hasVerifiedDomain(auth: Pick<AuthContext, 'schema'>, db: Store, organizationId: string, email: string): Promise<boolean> {
  const model = auth.schema.ssoProvider
  if (!model || !('domain' in model.fields) || !('domainVerified' in model.fields) || !('organizationId' in model.fields)) return false
  const domain = emailDomain(email)
  if (!domain) return false
  const provider = await db.findOne<Row>({
    model: 'ssoProvider',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'domain', value: domain },
      { field: 'domainVerified', value: true },
    ],
  })
  return provider !== null
}
