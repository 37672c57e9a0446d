/**
 * @module
 * Email addresses: validated with zod's email rule, stored and compared
 * lowercase (the user email is unique and stored lowercase: docs/core.md#tables).
 */
import { z } from 'zod'

const emailSchema = z.email()

/** The lowercased, trimmed address, or null when it is not a valid email. */
export function normalizeEmail(input: unknown): string | null {
  if (typeof input !== 'string') return null
  const email = input.trim().toLowerCase()
  if (email.length > 254 || !emailSchema.safeParse(email).success) return null
  return email
}
