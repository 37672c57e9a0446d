/**
 * @module
 * Short codes sent to an address or a phone (docs/plugins.md#one-time-codes):
 * the shared store behind the email-otp and phone-number plugins, so both
 * keep the same rules.
 *
 * - A code is `digits` decimal digits from the CSPRNG (6 at least), valid for
 *   `expiresIn` seconds (300 by default).
 * - It is stored as HMAC-SHA256 under a key derived from the auth secret for
 *   this purpose only, over its purpose, its destination and itself: a
 *   database dump alone does not let anyone test the million candidates
 *   offline, as a bare SHA-256 of six digits would. The row's identifier
 *   holds the purpose and the destination's SHA-256, not the address.
 * - One live code per purpose and destination: issuing replaces the last.
 * - Redeeming runs in one transaction under the row's lock: a wrong code
 *   counts one attempt, and that count commits even though the caller's
 *   request fails; once `allowedAttempts` (3) wrong tries were made the code
 *   is void and deleted, the right one included. A right code is deleted and
 *   the caller's work (`onValid`) runs in the same transaction: of parallel
 *   redemptions of one code exactly one wins, and a failure of the work
 *   rolls the consumption back so the code can be tried again.
 * - {@link limitSends} counts sends per destination in core's rate-limit
 *   store (every process counts against one budget), on top of the limits
 *   per client address of the routes.
 */
import { AuthError, type ErrorDefinition } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { constantTimeEqual, sha256Base64url } from '../crypto/keys.js'
import { sign } from '../crypto/hmac.js'
import type { Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { AuthContext } from '../endpoint/context.js'

/** Fewer digits than this are refused at configuration: a million codes at least. */
export const MIN_CODE_DIGITS = 6
export const DEFAULT_CODE_DIGITS = 6
export const DEFAULT_CODE_EXPIRES_IN = 300
export const DEFAULT_ALLOWED_ATTEMPTS = 3
const DIGITS = '0123456789'
const KEY_PURPOSE = 'one-time-code'
const PREFIX = 'otc:'

/** Which code: what it is for and where it was sent. A code of one target never passes for another. */
export interface CodeTarget {
  /** What the code proves, e.g. `email-otp:sign-in` or `phone-number:reset`. */
  readonly purpose: string
  /** Where it went, normalised: `ada@example.com`, `+14155550100`. */
  readonly destination: string
}

export interface IssueCodeOptions {
  /** Digits of the code; 6 by default and at least 6. */
  readonly digits?: number | undefined
  /** Seconds the code stays valid; 300 by default. */
  readonly expiresIn?: number | undefined
}

export interface RedeemCodeOptions {
  /** Wrong tries after which the code is void; 3 by default. */
  readonly allowedAttempts?: number | undefined
  /** Check the code without using it up (a wrong one still counts): the check-verification-otp route. */
  readonly keep?: boolean | undefined
}

export type CodeRefusal = 'invalid' | 'expired' | 'too-many-attempts'

export type Redeemed<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly reason: CodeRefusal }

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'random' | 'secrets'>

interface StoredCode {
  readonly mac: string
  readonly attempts: number
}

type CodeRow = Row & { id: string; value: string; expiresAt: Date }

function identifier(target: CodeTarget): string {
  return `${PREFIX}${target.purpose}:${sha256Base64url(target.destination)}`
}

function mac(key: Uint8Array, target: CodeTarget, code: string): string {
  return sign(`${target.purpose}\n${target.destination}\n${code}`, key)
}

function read(value: string): StoredCode | null {
  try {
    const parsed = JSON.parse(value) as Partial<StoredCode>
    if (typeof parsed.mac !== 'string' || typeof parsed.attempts !== 'number') return null
    return { mac: parsed.mac, attempts: parsed.attempts }
  } catch {
    return null
  }
}

/**
 * A new code for `target`, replacing any earlier one; the caller sends it.
 *
 * @example
 * const code = await issueCode(ctx.auth, { purpose: 'email-otp:sign-in', destination: email })
 * await options.sendVerificationOTP({ email, otp: code, type: 'sign-in' })
 */
export async function issueCode(auth: Ctx, target: CodeTarget, options: IssueCodeOptions = {}): Promise<string> {
  const digits = options.digits ?? DEFAULT_CODE_DIGITS
  if (!Number.isInteger(digits) || digits < MIN_CODE_DIGITS) throw new Error(`one-time codes need at least ${MIN_CODE_DIGITS} digits`)
  const code = auth.random.string(digits, DIGITS)
  const expiresIn = options.expiresIn ?? DEFAULT_CODE_EXPIRES_IN
  const id = identifier(target)
  const stored: StoredCode = { mac: mac(auth.secrets.key(KEY_PURPOSE), target, code), attempts: 0 }
  await auth.db.transaction(async (tx) => {
    await tx.deleteMany({ model: 'verification', where: { field: 'identifier', value: id } })
    await tx.create({
      model: 'verification',
      data: { identifier: id, value: JSON.stringify(stored), expiresAt: new Date(auth.clock.now().getTime() + expiresIn * 1000) },
    })
  })
  return code
}

/** Deletes the live code of `target`, if any: a send that was not made (no account) leaves nothing to guess. */
export async function discardCode(auth: Pick<AuthContext, 'db'>, target: CodeTarget): Promise<void> {
  await auth.db.deleteMany({ model: 'verification', where: { field: 'identifier', value: identifier(target) } })
}

/**
 * Checks `code` for `target` under the row's lock and, when it is right,
 * uses it up and runs `onValid` in the same transaction. A throw of
 * `onValid` rolls everything back: the code stays usable.
 *
 * @example
 * const result = await redeemCode(ctx.auth, target, body.otp, {}, (tx) => findOrCreateUser(tx, email))
 * if (!result.ok) throw refusal(result.reason)
 */
export async function redeemCode<R>(
  auth: Ctx,
  target: CodeTarget,
  code: string,
  options: RedeemCodeOptions,
  onValid: (tx: Store) => Promise<R>,
): Promise<Redeemed<R>> {
  const allowed = options.allowedAttempts ?? DEFAULT_ALLOWED_ATTEMPTS
  const id = identifier(target)
  // Anything but digits of a sane length cannot be a code: no lock, no attempt spent.
  const plausible = /^\d{1,32}$/.test(code)
  return auth.db.transaction(async (tx): Promise<Redeemed<R>> => {
    const row = await tx.lock<CodeRow>({ model: 'verification', where: { field: 'identifier', value: id } })
    if (!row) return { ok: false, reason: 'invalid' }
    const stored = read(row.value)
    if (!stored) {
      await tx.delete({ model: 'verification', where: { field: 'id', value: row.id } })
      return { ok: false, reason: 'invalid' }
    }
    if (row.expiresAt.getTime() <= auth.clock.now().getTime()) {
      await tx.delete({ model: 'verification', where: { field: 'id', value: row.id } })
      return { ok: false, reason: 'expired' }
    }
    if (stored.attempts >= allowed) {
      await tx.delete({ model: 'verification', where: { field: 'id', value: row.id } })
      return { ok: false, reason: 'too-many-attempts' }
    }
    let right = false
    // Every configured secret is tried, so rotating the auth secret does not void codes already sent.
    if (plausible) for (const key of auth.secrets.keys(KEY_PURPOSE)) if (constantTimeEqual(mac(key, target, code), stored.mac)) right = true
    if (!right) {
      const attempts = stored.attempts + 1
      // The last allowed wrong try voids the code: the next try, the right code included, finds nothing to guess.
      if (attempts >= allowed) await tx.delete({ model: 'verification', where: { field: 'id', value: row.id } })
      else await tx.update({ model: 'verification', where: { field: 'id', value: row.id }, update: { value: JSON.stringify({ ...stored, attempts }) } })
      return { ok: false, reason: attempts >= allowed ? 'too-many-attempts' : 'invalid' }
    }
    if (!options.keep) await tx.delete({ model: 'verification', where: { field: 'id', value: row.id } })
    return { ok: true, value: await onValid(tx) }
  })
}

/** A plugin's code options as its users give them (the leading library's names). */
export interface CodeOptionsInput {
  readonly otpLength?: number | undefined
  readonly expiresIn?: number | undefined
  readonly allowedAttempts?: number | undefined
}

export interface CodeSettings {
  readonly digits: number
  readonly expiresIn: number
  readonly allowedAttempts: number
}

/**
 * Checks a plugin's code options once, when the plugin is made: 6 to 12 digits, a positive lifetime, at least one try.
 *
 * @example
 * const codes = resolveCodeOptions('emailOTP', options) // { digits: 6, expiresIn: 300, allowedAttempts: 3 }
 */
export function resolveCodeOptions(plugin: string, options: CodeOptionsInput): CodeSettings {
  const digits = options.otpLength ?? DEFAULT_CODE_DIGITS
  if (!Number.isInteger(digits) || digits < MIN_CODE_DIGITS || digits > 12) throw new Error(`${plugin}: otpLength must be a whole number from ${MIN_CODE_DIGITS} to 12`)
  const expiresIn = options.expiresIn ?? DEFAULT_CODE_EXPIRES_IN
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new Error(`${plugin}: expiresIn must be a positive number of seconds`)
  const allowedAttempts = options.allowedAttempts ?? DEFAULT_ALLOWED_ATTEMPTS
  if (!Number.isInteger(allowedAttempts) || allowedAttempts < 1) throw new Error(`${plugin}: allowedAttempts must be a whole number of at least 1`)
  return { digits, expiresIn, allowedAttempts }
}

/** The errors a plugin answers each refusal with: its own catalogue's `INVALID_OTP`, `OTP_EXPIRED`, `TOO_MANY_ATTEMPTS`. */
export interface CodeErrors {
  readonly invalid: ErrorDefinition
  readonly expired: ErrorDefinition
  readonly tooManyAttempts: ErrorDefinition
}

/**
 * {@link redeemCode} for a route: `onValid`'s result, or the refusal thrown as the plugin's error.
 *
 * @example
 * const user = await redeemCodeOrThrow(ctx.auth, target, body.otp, { errors }, (tx) => findOrCreate(tx, email))
 */
export async function redeemCodeOrThrow<R>(
  auth: Ctx,
  target: CodeTarget,
  code: string,
  options: RedeemCodeOptions & { readonly errors: CodeErrors },
  onValid: (tx: Store) => Promise<R>,
): Promise<R> {
  const result = await redeemCode(auth, target, code, options, onValid)
  if (result.ok) return result.value
  const { errors } = options
  throw new AuthError(result.reason === 'expired' ? errors.expired : result.reason === 'too-many-attempts' ? errors.tooManyAttempts : errors.invalid)
}

/** How many codes a destination may receive: per minute and per hour by default (docs/plugins.md#one-time-codes). */
export interface SendLimit {
  readonly window: number
  readonly max: number
}

export const DEFAULT_SEND_LIMITS: readonly SendLimit[] = [
  { window: 60, max: 3 },
  { window: 3600, max: 10 },
]

/**
 * Counts one send to `destination` against each limit, in core's rate-limit
 * store; throws 429 TOO_MANY_REQUESTS (with `X-Retry-After`) when one is
 * spent. Counted whether or not an account exists there, so the answer tells
 * nothing about accounts.
 *
 * @example
 * await limitSends(ctx.auth, 'email-otp', email)
 */
export async function limitSends(
  auth: Pick<AuthContext, 'rateLimitStore' | 'clock'>,
  channel: string,
  destination: string,
  limits: readonly SendLimit[] = DEFAULT_SEND_LIMITS,
): Promise<void> {
  const now = auth.clock.now()
  for (const limit of limits) {
    const decision = await auth.rateLimitStore.hit(`otc-send|${channel}|${limit.window}|${sha256Base64url(destination)}`, limit, now)
    if (!decision.allowed) {
      throw new AuthError(CoreErrors.TOO_MANY_REQUESTS, { headers: { 'x-retry-after': String(decision.retryAfterSeconds) } })
    }
  }
}
