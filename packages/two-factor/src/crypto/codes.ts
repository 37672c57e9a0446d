/**
 * @module
 * Backup codes and mailed codes (docs/two-factor.md#security). Backup codes
 * are 10 characters (by default) from a 30-letter alphabet without look-alikes
 * (0/o, 1/l/i), drawn from the CSPRNG: about 49 bits each, beyond guessing
 * under the per-user lockout. Mailed codes are the configured number of
 * digits. Both are stored as HMAC-SHA256 under a per-purpose key derived
 * from the auth secret, with the user id in the input: a database dump
 * alone does not let anyone test candidate codes offline, as a bare SHA-256
 * of a 6-digit code would. Every configured secret's hash is a candidate, so
 * rotating the auth secret does not void codes already handed out.
 */
import type { Random, Secrets } from '@gatehouse/core'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'

export const BACKUP_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
const DIGITS = '0123456789'

export type CodePurpose = 'backup-code' | 'otp'

/** Lowercase, without the spaces and dashes people type or paste. */
export function normalizeBackupCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '')
}

export function generateBackupCodes(random: Random, amount: number, length: number): string[] {
  return Array.from({ length: amount }, () => random.string(length, BACKUP_CODE_ALPHABET))
}

export function generateOtp(random: Random, digits: number): string {
  return random.string(digits, DIGITS)
}

function mac(key: Uint8Array, userId: string, code: string): string {
  return encodeBase64urlNoPadding(hmac(sha256, key, new TextEncoder().encode(`${userId}:${code}`)))
}

/** The stored form of a code, under the newest secret. */
export function hashCode(secrets: Secrets, purpose: CodePurpose, userId: string, code: string): string {
  return mac(secrets.key(`two-factor:${purpose}`), userId, code)
}

/** The stored forms a code may have, one per configured secret (newest first). */
export function codeHashCandidates(secrets: Secrets, purpose: CodePurpose, userId: string, code: string): string[] {
  return secrets.keys(`two-factor:${purpose}`).map((key) => mac(key, userId, code))
}
