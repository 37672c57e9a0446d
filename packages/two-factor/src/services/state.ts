/**
 * @module
 * Reading and writing a user's two-factor state (docs/two-factor.md#tables):
 * the `twoFactor` row, the backup-code rows, the user's `twoFactorEnabled`
 * flag, and the password check the settings routes ask for. After the flag
 * changes, the caller's cookie cache and the mirrored sessions in secondary
 * storage are rewritten, so get-session shows the new value at once.
 */
import {
  AuthError,
  CoreErrors,
  publicRow,
  refreshUserInStorage,
  setCookieCache,
  type EndpointContext,
  type Row,
  type SessionWithUser,
  type Store,
  type User,
} from '@gatehouse/core'
import { generateBackupCodes, hashCode } from '../crypto/codes.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'

export interface TwoFactorRow {
  readonly id: string
  readonly userId: string
  readonly secret: string
  readonly lastUsedStep: number | null
  readonly failedAttempts: number
  readonly lockedUntil: Date | null
  readonly lockouts?: number | null
  readonly backupFailedAttempts?: number | null
  readonly backupLockedUntil?: Date | null
  readonly backupLockouts?: number | null
  readonly trustVersion: string
  /** The user chose emailed codes (enable-otp): only then does send-otp mail one (docs/two-factor.md#email-codes). */
  readonly otpEnabled?: boolean | null
}

export type TwoFactorUser = User & { readonly twoFactorEnabled?: boolean | null }

export const TRUST_VERSION_LENGTH = 22

export function findTwoFactor(db: Store, userId: string): Promise<(TwoFactorRow & Row) | null> {
  return db.findOne<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: userId } })
}

export function isEnabled(user: User): boolean {
  return (user as TwoFactorUser).twoFactorEnabled === true
}

/**
 * Whether emailed codes pass this user's second step: only a user with two-factor on who chose them
 * (enable-otp). Without the choice the mailbox is no way past the authenticator app, since whoever reads
 * the mailbox can also reset the password (docs/two-factor.md#email-codes).
 */
export function otpChosen(row: Pick<TwoFactorRow, 'otpEnabled'> | null): boolean {
  return row?.otpEnabled === true
}

/** Refuses a wrong password (400 "Invalid password", as core's own routes) or an account without one. */
export async function requirePassword(ctx: EndpointContext, userId: string, password: string): Promise<void> {
  const account = await ctx.db.findOne<{ password?: string | null } & Row>({
    model: 'account',
    where: [
      { field: 'userId', value: userId },
      { field: 'providerId', value: 'credential' },
    ],
  })
  if (!account?.password) throw new AuthError(TwoFactorErrors.NO_PASSWORD)
  if (!(await ctx.auth.passwords.verify(account.password, password))) throw new AuthError(CoreErrors.INVALID_PASSWORD)
}

/** Replaces the user's backup codes with fresh ones; returns them in clear, the only time they exist so. */
export async function replaceBackupCodes(ctx: EndpointContext, tx: Store, options: ResolvedTwoFactorOptions, userId: string): Promise<string[]> {
  const codes = generateBackupCodes(ctx.random, options.backupCodes.amount, options.backupCodes.length)
  await tx.deleteMany({ model: 'twoFactorBackupCode', where: { field: 'userId', value: userId } })
  for (const code of codes) {
    await tx.create({ model: 'twoFactorBackupCode', data: { userId, codeHash: hashCode(ctx.secrets, 'backup-code', userId, code) } })
  }
  return codes
}

/** Sets `twoFactorEnabled`; returns the updated user. */
export async function setEnabled(tx: Store, userId: string, enabled: boolean): Promise<User | null> {
  return tx.update<User & Row>({ model: 'user', where: { field: 'id', value: userId }, update: { twoFactorEnabled: enabled } })
}

/** After the flag changed: the caller's cookie cache and every mirrored session show the new user. */
export async function publishUser(ctx: EndpointContext, session: SessionWithUser | null, user: User): Promise<void> {
  const shown = publicRow(ctx.auth.schema, 'user', user as User & Row)
  if (session) setCookieCache(ctx, { session: session.session, user: shown })
  await refreshUserInStorage(ctx.auth, user)
}
