/**
 * @module
 * The tables of the two-factor plugin (docs/two-factor.md#tables).
 *
 * - `user.twoFactorEnabled`: true once a first code confirmed the setup; the
 *   app reads it from get-session. `input: false`: only the plugin writes it.
 * - `twoFactor`, one row per user: the TOTP secret encrypted (AES-256-GCM),
 *   the last accepted time step (replay guard, RFC 6238 §5.2), the failure
 *   counter and lockout end, and the trust generation that every "trust this
 *   device" cookie is bound to. The row is locked for each verification, so
 *   checks and updates of one user never interleave.
 * - `twoFactorBackupCode`: one row per code, only its SHA-256 stored;
 *   consumed (deleted) atomically, so each works once.
 * - Email codes live in core's verification table, hashed (services/email-otp.ts).
 */
import type { SchemaExtension } from '@gatehouse/core'

export const twoFactorSchema: SchemaExtension = {
  user: {
    fields: {
      twoFactorEnabled: { type: 'boolean', required: false, defaultValue: false, input: false },
    },
  },
  twoFactor: {
    fields: {
      userId: { type: 'string', required: true, unique: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      secret: { type: 'string', required: true, returned: false },
      lastUsedStep: { type: 'number', required: false },
      failedAttempts: { type: 'number', required: true, defaultValue: 0 },
      lockedUntil: { type: 'date', required: false },
      trustVersion: { type: 'string', required: true },
      createdAt: { type: 'date', required: true },
      updatedAt: { type: 'date', required: true },
    },
  },
  twoFactorBackupCode: {
    fields: {
      userId: { type: 'string', required: true, index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      codeHash: { type: 'string', required: true, unique: true },
      createdAt: { type: 'date', required: true },
    },
  },
}
