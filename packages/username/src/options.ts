/**
 * @module
 * The username plugin's options and their defaults (docs/username.md#options).
 */

export interface UsernameOptions {
  /** Shortest username, counted after normalisation; 3 by default. */
  readonly minUsernameLength?: number
  /** Longest username, counted after normalisation; 30 by default. */
  readonly maxUsernameLength?: number
  /**
   * Whether a normalised username is allowed; by default lowercase letters a–z, digits, `_` and `.`.
   * Called with the normalised form (NFKC, case-folded), so a rule never has to think about case.
   */
  readonly usernameValidator?: (username: string) => boolean | Promise<boolean>
  /** Whether a display username is allowed (after NFKC); by default any text without control characters. */
  readonly displayUsernameValidator?: (displayUsername: string) => boolean | Promise<boolean>
  /** Longest display username; 64 by default. */
  readonly maxDisplayUsernameLength?: number
  /**
   * Names nobody may take, compared in normalised form. Replaces the default list
   * (`admin`, `root`, `support`, …: {@link DEFAULT_RESERVED_USERNAMES}); `[]` reserves none.
   */
  readonly reservedUsernames?: readonly string[]
  /** Once a user has a username, update-user may not change it; false by default. */
  readonly immutableUsername?: boolean
  /** POST /is-username-available answers 404: for apps whose usernames must not be probed; false by default. */
  readonly disableAvailabilityCheck?: boolean
}

/** Names that look official to other users: impersonation bait. */
export const DEFAULT_RESERVED_USERNAMES: readonly string[] = [
  'admin',
  'administrator',
  'root',
  'system',
  'support',
  'help',
  'security',
  'staff',
  'moderator',
  'official',
  'api',
  'www',
  'mail',
  'postmaster',
  'hostmaster',
  'webmaster',
  'abuse',
  'noreply',
  'no_reply',
  'me',
  'settings',
  'null',
  'undefined',
]

export interface ResolvedUsernameOptions {
  readonly minUsernameLength: number
  readonly maxUsernameLength: number
  readonly maxDisplayUsernameLength: number
  readonly usernameValidator: (username: string) => boolean | Promise<boolean>
  readonly displayUsernameValidator: (displayUsername: string) => boolean | Promise<boolean>
  readonly reserved: ReadonlySet<string>
  readonly immutableUsername: boolean
  readonly disableAvailabilityCheck: boolean
}

const DEFAULT_CHARACTERS = /^[a-z0-9_.]+$/
// C0 and C1 controls, and the bidirectional overrides that make a name display as another.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u

export function resolveOptions(options: UsernameOptions, normalize: (name: string) => string): ResolvedUsernameOptions {
  const min = options.minUsernameLength ?? 3
  const max = options.maxUsernameLength ?? 30
  if (!Number.isInteger(min) || min < 1 || !Number.isInteger(max) || max < min || max > 255) {
    throw new Error('username: minUsernameLength and maxUsernameLength must be whole numbers with 1 <= min <= max <= 255')
  }
  return {
    minUsernameLength: min,
    maxUsernameLength: max,
    maxDisplayUsernameLength: options.maxDisplayUsernameLength ?? 64,
    usernameValidator: options.usernameValidator ?? ((name) => DEFAULT_CHARACTERS.test(name)),
    displayUsernameValidator: options.displayUsernameValidator ?? ((name) => name.trim().length > 0 && !CONTROL.test(name)),
    reserved: new Set((options.reservedUsernames ?? DEFAULT_RESERVED_USERNAMES).map(normalize)),
    immutableUsername: options.immutableUsername ?? false,
    disableAvailabilityCheck: options.disableAvailabilityCheck ?? false,
  }
}
