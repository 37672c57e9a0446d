/**
 * @module
 * Authorization codes and pending consents, in core's verification table
 * (docs/oidc-provider.md#authorization-codes). The identifier is a purpose
 * prefix plus the SHA-256 of the code, so a database dump holds no usable
 * code and a pending-consent token can never be redeemed as a code. The
 * value is the grant as JSON. Redemption is the adapter's atomic `consume`:
 * of any number of parallel redemptions, one gets the row.
 */
import type { Clock, Random, Row, Store } from '@gatehouse/core'
import { digest, generateOpaqueToken } from './secrets.js'

export type CodePurpose = 'code' | 'consent'

const prefixes: Record<CodePurpose, string> = { code: 'oidc-code:', consent: 'oidc-consent:' }

/** What a code stands for: who granted what to which client, and how to check the redeemer. */
export interface Grant {
  readonly clientId: string
  readonly redirectURI: string
  readonly userId: string
  readonly scopes: readonly string[]
  readonly state?: string | undefined
  readonly nonce?: string | undefined
  readonly codeChallenge?: string | undefined
  readonly codeChallengeMethod?: 'S256' | 'plain' | undefined
  /** Epoch milliseconds of the sign-in behind the grant: the ID Token's auth_time. */
  readonly authTime: number
  /**
   * The stored token hash of the session that authorized: the code is
   * redeemable only while that session lives, so a code issued just before a
   * revocation of the user's credentials dies with it.
   */
  readonly sessionToken?: string | undefined
  /**
   * Epoch milliseconds when the authorization (or the pending consent) was
   * made: a connected-app revocation at or after it ends the code
   * (docs/oidc-provider.md#connected-apps). Absent on codes made before the field.
   */
  readonly issuedAt?: number | undefined
  /** How the user signed in (RFC 8176 values), from the session row: the ID Token's `amr`. */
  readonly amr?: readonly string[] | undefined
  /** The ID Token's `acr` (docs/oidc-provider.md#amr-and-acr). */
  readonly acr?: string | undefined
}

interface Ctx {
  readonly db: Store
  readonly clock: Clock
  readonly random: Random
}

export async function codeIdentifier(purpose: CodePurpose, code: string): Promise<string> {
  return `${prefixes[purpose]}${await digest(code)}`
}

/** Stores the grant under a fresh code; returns the code. */
export async function createCode(ctx: Ctx, purpose: CodePurpose, grant: Grant, expiresInSeconds: number): Promise<string> {
  const code = generateOpaqueToken(ctx.random)
  await ctx.db.create({
    model: 'verification',
    data: {
      identifier: await codeIdentifier(purpose, code),
      value: JSON.stringify(grant),
      expiresAt: new Date(ctx.clock.now().getTime() + expiresInSeconds * 1000),
    },
  })
  return code
}

export type ConsumedCode = { readonly ok: true; readonly grant: Grant } | { readonly ok: false; readonly reason: 'unknown' | 'expired' }

/** Deletes the code and answers its grant; one caller wins a given code. */
export async function consumeCode(ctx: Ctx, purpose: CodePurpose, code: string, db: Store = ctx.db): Promise<ConsumedCode> {
  const row = await db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: await codeIdentifier(purpose, code) },
  })
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.expiresAt.getTime() <= ctx.clock.now().getTime()) return { ok: false, reason: 'expired' }
  return { ok: true, grant: JSON.parse(row.value) as Grant }
}

/** The grant of an unexpired code, left in place (the consent page reads its pending request before the answer). */
export async function peekCode(ctx: Pick<Ctx, 'db' | 'clock'>, purpose: CodePurpose, code: string): Promise<Grant | null> {
  const row = await ctx.db.findOne<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: await codeIdentifier(purpose, code) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return JSON.parse(row.value) as Grant
}
