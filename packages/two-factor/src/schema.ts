/**
 * @module
 * The tables of the two-factor plugin (docs/two-factor.md#tables).
 *
 * - `user.twoFactorEnabled`: true once a first code confirmed the setup; the
 *   app reads it from get-session. `input: false`: only the plugin writes it.
 * - `session.twoFactorVerifiedAt`, `session.twoFactorMethod`: when this
 *   session last passed the second factor (the second step of its sign-in, a
 *   code checked while signed in, the confirmation of the setup) and with
 *   which kind of code (`totp`, `otp` for an emailed code, `backup-code`).
 *   The settings routes take it as proof for a few minutes, never when the
 *   code was emailed (services/proof.ts). Never returned: read from the row.
 * - `twoFactor`, one row per user: the TOTP secret encrypted (AES-256-GCM),
 *   the last accepted time step (replay guard, RFC 6238 §5.2), two guessing
 *   budgets (one-time codes, i.e. TOTP and emailed codes, and backup codes),
 *   each a failure counter, a lockout end and the number of lockouts since
 *   its last right code (services/guard.ts), and the trust generation that
 *   every "trust this device" cookie is bound to. `otpEnabled`: the user
 *   chose emailed codes as a second way past the second step (enable-otp);
 *   without it send-otp mails nothing (docs/two-factor.md#email-codes). The
 *   row is locked for each verification, so checks and updates of one user
 *   never interleave.
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
  session: {
    fields: {
      twoFactorVerifiedAt: { type: 'date', required: false, input: false, returned: false },
      twoFactorMethod: { type: 'string', required: false, input: false, returned: false },
    },
  },
  twoFactor: {
    fields: {
      userId: { type: 'string', required: true, unique: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      secret: { type: 'string', required: true, returned: false },
      lastUsedStep: { type: 'number', required: false },
      failedAttempts: { type: 'number', required: true, defaultValue: 0 },
      lockedUntil: { type: 'date', required: false },
      lockouts: { type: 'number', required: true, defaultValue: 0 },
      backupFailedAttempts: { type: 'number', required: true, defaultValue: 0 },
      backupLockedUntil: { type: 'date', required: false },
      backupLockouts: { type: 'number', required: true, defaultValue: 0 },
      trustVersion: { type: 'string', required: true },
      otpEnabled: { type: 'boolean', required: true, defaultValue: false },
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
