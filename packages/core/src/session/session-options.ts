/**
 * @module
 * Session lifetimes (docs/sessions.md#lifetimes-seconds). Values are seconds.
 * The resolver takes only the `session` group (declared with the other option
 * groups in `types/options.ts`), never the whole options type.
 */
import type { SessionOptions } from '../types/options.js'

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
