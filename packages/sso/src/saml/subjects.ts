/**
 * @module
 * Who a user is at a SAML provider, for single logout (docs/sso.md#saml-single-logout).
 * A LogoutRequest names the principal by NameID (with its format, and the
 * IdP session by SessionIndex), which is not always the account's ID (a
 * provider may map `mapping.id` to an attribute). After each SAML sign-in
 * the subject is written twice to core's verification table:
 *
 * - `sso-saml-subject:` + SHA-256(providerId, userId): NameID, format,
 *   SessionIndex — what our LogoutRequest for this user says;
 * - `sso-saml-nameid:` + SHA-256(providerId, NameID): the user — whom an
 *   IdP's LogoutRequest signs out.
 *
 * Both are kept 30 days from the last sign-in and replaced by the next one.
 * Without them (older, or expired) the account's ID stands in for the NameID.
 */
import { sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import type { SamlSubject } from './profile.js'

const BY_USER = 'sso-saml-subject:'
const BY_NAME_ID = 'sso-saml-nameid:'
const SUBJECT_TTL_MS = 30 * 24 * 3600 * 1000

type Ctx = Pick<EndpointContext, 'db' | 'clock'>

function byUser(providerId: string, userId: string): string {
  return `${BY_USER}${sha256Base64url(`${providerId}\n${userId}`)}`
}

function byNameId(providerId: string, nameID: string): string {
  return `${BY_NAME_ID}${sha256Base64url(`${providerId}\n${nameID}`)}`
}

/**
 * @example
 * await rememberSubject(ctx, 'acme', user.id, { nameID, nameIDFormat, sessionIndex })
 */
export async function rememberSubject(ctx: Ctx, providerId: string, userId: string, subject: SamlSubject): Promise<void> {
  const expiresAt = new Date(ctx.clock.now().getTime() + SUBJECT_TTL_MS)
  const rows = [
    { identifier: byUser(providerId, userId), value: JSON.stringify(subject) },
    { identifier: byNameId(providerId, subject.nameID), value: JSON.stringify({ userId }) },
  ]
  await ctx.db.transaction(async (tx) => {
    for (const row of rows) {
      await tx.deleteMany({ model: 'verification', where: { field: 'identifier', value: row.identifier } })
      await tx.create({ model: 'verification', data: { ...row, expiresAt } })
    }
  })
}

/** The SAML subject `userId` last signed in as through `providerId`, or null. */
export async function subjectOfUser(ctx: Ctx, providerId: string, userId: string): Promise<SamlSubject | null> {
  const value = await read(ctx, byUser(providerId, userId))
  if (!value || typeof value.nameID !== 'string') return null
  const optional = (field: unknown): string | null => (typeof field === 'string' ? field : null)
  return { nameID: value.nameID, nameIDFormat: optional(value.nameIDFormat), sessionIndex: optional(value.sessionIndex) }
}

/** The user who last signed in through `providerId` as `nameID`, or null. */
export async function userOfNameId(ctx: Ctx, providerId: string, nameID: string): Promise<string | null> {
  const value = await read(ctx, byNameId(providerId, nameID))
  return value && typeof value.userId === 'string' ? value.userId : null
}

async function read(ctx: Ctx, identifier: string): Promise<Record<string, unknown> | null> {
  const row = await ctx.db.findOne<Row & { value: string; expiresAt: Date }>({ model: 'verification', where: { field: 'identifier', value: identifier } })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  try {
    const parsed = JSON.parse(row.value) as unknown
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}
