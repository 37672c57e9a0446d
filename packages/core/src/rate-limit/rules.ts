/**
 * @module
 * Which limit applies to a request path. Every endpoint gets the global
 * default; the endpoints an attacker would hammer to guess passwords, flood
 * inboxes or enumerate accounts get a stricter built-in rule (3 requests per
 * 10 s); plugins add rules for their own endpoints; the application overrides
 * any of them by path, or turns a path's limit off with `false`.
 */

export interface RateLimitRule {
  /** Window length in seconds. */
  readonly window: number
  /** Requests allowed per window and per client. */
  readonly max: number
  /**
   * What happens while the counter store is unreachable (docs/rate-limits.md#when-the-store-is-down):
   * true refuses the request with 503, false lets it through uncounted. It also
   * decides a request with no client address at all (docs/rate-limits.md#defaults):
   * true counts it under one key shared by all such requests, false lets it through uncounted.
   * Default: true for the credential paths (`credentialPaths`), false elsewhere.
   */
  readonly failClosed?: boolean | undefined
}

export type RateLimitStorageKind = 'memory' | 'database' | 'secondary-storage'

export interface RateLimitOptions {
  /** Default true. */
  enabled?: boolean | undefined
  /** Global window in seconds. Default 10. */
  window?: number | undefined
  /** Global requests per window. Default 100. */
  max?: number | undefined
  /** Default 'secondary-storage' when a secondary storage is configured, else 'memory'. */
  storage?: RateLimitStorageKind | undefined
  /**
   * Per-path overrides. A key is an exact path (`/sign-in/email`) or a prefix
   * ending in `*` (`/sign-in/*`); `false` turns limiting off for the path.
   */
  customRules?: Readonly<Record<string, RateLimitRule | false>> | undefined
}

/** A rule a plugin declares for its endpoints. */
export interface PluginRateLimitRule extends RateLimitRule {
  readonly pathMatcher: (path: string) => boolean
}

export const DEFAULT_WINDOW_SECONDS = 10
export const DEFAULT_MAX_REQUESTS = 100

const STRICT: RateLimitRule = { window: 10, max: 3 }

/** Credential guessing, sign-up spam and mail flooding go through these paths. */
export const builtInRules: Readonly<Record<string, RateLimitRule>> = {
  '/sign-in/*': STRICT,
  '/sign-up/*': STRICT,
  '/request-password-reset': STRICT,
  '/forget-password': STRICT,
  '/reset-password': STRICT,
  '/change-password': STRICT,
  '/send-verification-email': STRICT,
}

/**
 * Paths where a guess or a mail costs the victim: sign-in and sign-up, password
 * reset, email verification, second factors. While the counter store is down
 * these fail closed (503), since an unlimited window is what a password
 * guesser waits for; every other path fails open (docs/rate-limits.md#when-the-store-is-down).
 * For the same reason a request to them with no client address is counted
 * under one shared key rather than let through (docs/rate-limits.md#defaults).
 */
export const credentialPaths: readonly string[] = [
  '/sign-in/*',
  '/sign-up/*',
  '/request-password-reset',
  '/forget-password',
  '/reset-password',
  '/reset-password/*',
  '/change-password',
  '/send-verification-email',
  '/verify-email',
  '/two-factor/*',
  '/passkey/*',
  '/magic-link/*',
  '/email-otp/*',
  '/oauth2/token',
]

/**
 * Whether `path` is refused while the counter store is down (and counts
 * unidentified clients together): the `failClosed` of the rule that applies
 * (custom, then plugin), else whether it is a credential path.
 *
 * @example
 * failsClosed('/sign-in/email', {}, [])   // true
 * failsClosed('/get-session', {}, [])     // false
 */
export function failsClosed(path: string, options: RateLimitOptions, pluginRules: readonly PluginRateLimitRule[] = []): boolean {
  const custom = options.customRules ?? {}
  const chosen = (Object.hasOwn(custom, path) ? custom[path] : undefined) ?? matchWildcard(path, custom)
  if (chosen && chosen.failClosed !== undefined) return chosen.failClosed
  const plugin = pluginRules.find((rule) => rule.pathMatcher(path))
  if (plugin?.failClosed !== undefined) return plugin.failClosed
  return credentialPaths.some((pattern) => matchesPattern(pattern, path))
}

/**
 * The longest window any rule uses: a counter untouched for that long has
 * expired under every rule, which is what cleanup relies on (docs/core.md#cleanup).
 */
export function longestWindow(options: RateLimitOptions, pluginRules: readonly PluginRateLimitRule[] = []): number {
  const windows = [
    options.window ?? DEFAULT_WINDOW_SECONDS,
    ...Object.values(options.customRules ?? {}).flatMap((rule) => (rule === false ? [] : [rule.window])),
    ...pluginRules.map((rule) => rule.window),
    ...Object.values(builtInRules).map((rule) => rule.window),
  ]
  return Math.max(...windows)
}

/**
 * The rule for `path`, or null when limiting is off for it. Precedence:
 * custom exact path, custom wildcard (longest prefix first), the first
 * matching plugin rule, built-in rule, global default.
 *
 * @example
 * resolveRule('/sign-in/email', {}, [])                                        // { window: 10, max: 3 }
 * resolveRule('/sign-in/email', { customRules: { '/sign-in/*': false } }, [])  // null
 * resolveRule('/get-session', { window: 60, max: 300 }, [])                    // { window: 60, max: 300 }
 */
export function resolveRule(
  path: string,
  options: RateLimitOptions,
  pluginRules: readonly PluginRateLimitRule[] = [],
): RateLimitRule | null {
  const custom = options.customRules ?? {}
  const exact = Object.hasOwn(custom, path) ? custom[path] : undefined
  if (exact !== undefined) return toRule(exact)

  const wildcard = matchWildcard(path, custom)
  if (wildcard !== undefined) return toRule(wildcard)

  const plugin = pluginRules.find((rule) => rule.pathMatcher(path))
  if (plugin) return { window: plugin.window, max: plugin.max }

  const builtIn = Object.hasOwn(builtInRules, path) ? builtInRules[path] : matchWildcard(path, builtInRules)
  if (builtIn !== undefined) return builtIn

  return { window: options.window ?? DEFAULT_WINDOW_SECONDS, max: options.max ?? DEFAULT_MAX_REQUESTS }
}

/** Whether a `customRules` key matches `path`: equal, or a `*`-terminated prefix of it. */
export function matchesPattern(pattern: string, path: string): boolean {
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1))
  return pattern === path
}

/**
 * Throws when a rule could not limit anything sensibly, so a typo in the
 * configuration fails at start-up rather than silently allowing everything.
 */
export function assertValidRule(rule: RateLimitRule, where: string): void {
  if (!(Number.isFinite(rule.window) && rule.window > 0)) {
    throw new Error(`Gatehouse rate limit: ${where} window must be a positive number of seconds (got ${rule.window})`)
  }
  if (!(Number.isInteger(rule.max) && rule.max >= 0)) {
    throw new Error(`Gatehouse rate limit: ${where} max must be a non-negative integer (got ${rule.max})`)
  }
}

function matchWildcard<T>(path: string, rules: Readonly<Record<string, T>>): T | undefined {
  let best: { length: number; rule: T } | undefined
  for (const [pattern, rule] of Object.entries(rules)) {
    if (!pattern.endsWith('*') || !matchesPattern(pattern, path)) continue
    // The most specific pattern wins: '/sign-in/email*' over '/sign-in/*' over '/*'.
    if (best === undefined || pattern.length > best.length) best = { length: pattern.length, rule }
  }
  return best?.rule
}

function toRule(rule: RateLimitRule | false): RateLimitRule | null {
  return rule === false ? null : { window: rule.window, max: rule.max }
}
