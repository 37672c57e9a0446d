/**
 * @module
 * Session lifetimes (docs/sessions.md#lifetimes-seconds). Values are seconds.
 * A leaf: the resolver takes only the `session` group, so the options type,
 * which holds these, never needs importing here.
 */

export interface SessionOptions {
  /** Lifetime of a session. Default 7 days. */
  readonly expiresIn?: number
  /** A read older than this since the last update extends the session. Default 1 day. */
  readonly updateAge?: number
  /** Sensitive actions need a session updated within this. Default 1 day; 0 turns the check off. */
  readonly freshAge?: number
  /** Serve get-session from a signed cookie for `maxAge` seconds (default 60) without touching the database. */
  readonly cookieCache?: { readonly enabled?: boolean; readonly maxAge?: number }
}

export interface ResolvedSessionOptions {
  readonly expiresIn: number
  readonly updateAge: number
  readonly freshAge: number
  readonly cookieCache: { readonly enabled: boolean; readonly maxAge: number }
}

const DAY = 24 * 60 * 60

export function sessionOptions(options: { readonly session?: SessionOptions | undefined }): ResolvedSessionOptions {
  const session = options.session ?? {}
  return {
    expiresIn: session.expiresIn ?? 7 * DAY,
    updateAge: session.updateAge ?? DAY,
    freshAge: session.freshAge ?? DAY,
    cookieCache: { enabled: session.cookieCache?.enabled ?? false, maxAge: session.cookieCache?.maxAge ?? 60 },
  }
}
