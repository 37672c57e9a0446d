/**
 * @module
 * What `passkey(options)` accepts, and its defaults (docs/passkeys.md#options).
 * The relying party defaults come from the auth's base URL, which is only
 * known once the auth is made: `relyingParty(ctx)` reads them per request.
 * Challenges live 300 seconds (docs/passkeys.md#challenges). User
 * verification is required by default: only then is a passkey more than one
 * factor, which two-factor counts on (docs/two-factor.md#which-sign-ins-are-challenged).
 */
export interface PasskeyOptions {
  /** The relying party id: a registrable domain the origins belong to. Default: the base URL's host name. */
  readonly rpID?: string | undefined
  /** The name authenticators show. Default: the auth's `appName`, else the rpID. */
  readonly rpName?: string | undefined
  /** The origin(s) the browser may run the ceremony on. Default: the base URL's origin. */
  readonly origin?: string | readonly string[] | undefined
  /**
   * `required` (default) refuses a registration or sign-in whose authenticator did not verify the user (PIN,
   * biometrics): the UV flag must be set, and a passkey is then possession plus a PIN or biometrics, more
   * than one factor (docs/passkeys.md#security). `preferred` asks for verification but accepts presence
   * only: a passkey is then a single possession factor (a security key without a PIN signs in alone).
   */
  readonly userVerification?: 'preferred' | 'required' | undefined
  /** Seconds a challenge stays valid. Default 300 (5 minutes). */
  readonly challengeExpiresIn?: number | undefined
  /**
   * Requests per window and client to the sign-in routes (generate-authenticate-options and
   * verify-authentication). Default 10 per 60 seconds (docs/passkeys.md#rate-limits).
   */
  readonly rateLimit?: { readonly window?: number | undefined; readonly max?: number | undefined } | undefined
}

export interface ResolvedPasskeyOptions {
  readonly rpID: string | undefined
  readonly rpName: string | undefined
  readonly origin: readonly string[] | undefined
  readonly userVerification: 'preferred' | 'required'
  readonly challengeExpiresIn: number
  readonly rateLimit: { readonly window: number; readonly max: number }
}

/** The relying party a request works with: the options, or the auth's base URL. */
export interface RelyingParty {
  readonly id: string
  readonly name: string
  readonly origins: string[]
}

export const DEFAULT_CHALLENGE_EXPIRES_IN = 300

/**
 * @example
 * resolveOptions({ rpID: 'example.com' }).challengeExpiresIn // 300
 */
export function resolveOptions(options: PasskeyOptions = {}): ResolvedPasskeyOptions {
  const challengeExpiresIn = options.challengeExpiresIn ?? DEFAULT_CHALLENGE_EXPIRES_IN
  if (!Number.isFinite(challengeExpiresIn) || challengeExpiresIn <= 0) {
    throw new Error('passkey() challengeExpiresIn must be a positive number of seconds')
  }
  const origin = options.origin === undefined ? undefined : typeof options.origin === 'string' ? [options.origin] : [...options.origin]
  for (const entry of origin ?? []) {
    // An origin is scheme, host and port only: a path or a trailing slash would never match clientDataJSON.origin.
    if (new URL(entry).origin !== entry) throw new Error(`passkey() origin "${entry}" is not an origin (scheme://host[:port])`)
  }
  if (options.userVerification !== undefined && options.userVerification !== 'preferred' && options.userVerification !== 'required') {
    throw new Error('passkey() userVerification must be "preferred" or "required"')
  }
  return {
    rpID: options.rpID,
    rpName: options.rpName,
    origin,
    userVerification: options.userVerification ?? 'required',
    challengeExpiresIn,
    rateLimit: { window: options.rateLimit?.window ?? 60, max: options.rateLimit?.max ?? 10 },
  }
}

/**
 * @example
 * relyingParty(ctx.auth, options) // { id: 'app.example.com', name: 'Example', origins: ['https://app.example.com'] }
 */
export function relyingParty(
  auth: { readonly origin: string; readonly options: { readonly appName?: string | undefined } },
  options: ResolvedPasskeyOptions,
): RelyingParty {
  const id = options.rpID ?? new URL(auth.origin).hostname
  return { id, name: options.rpName ?? auth.options.appName ?? id, origins: options.origin ? [...options.origin] : [auth.origin] }
}
