/**
 * @module
 * What `magicLink(options)` accepts, and its defaults (docs/magic-link.md#options):
 * links live 300 seconds, unknown addresses may sign up. Options are resolved
 * once, when the plugin is made; routes read the resolved object at run time.
 */
import type { MailContext } from '@gatehouse/core'

type MaybePromise<T> = T | Promise<T>

/** What the mail callback receives: the address, the link to mail, and the token in it. */
export interface MagicLinkMail {
  readonly email: string
  readonly url: string
  readonly token: string
}

export interface MagicLinkOptions {
  /**
   * Mails the link. Called for known addresses and, while sign-up is allowed,
   * for unknown ones. Keep it fast (queue the mail): see docs/magic-link.md#security.
   */
  readonly sendMagicLink: (data: MagicLinkMail, ctx: MailContext) => MaybePromise<void>
  /** Seconds a link stays valid. Default 300 (5 minutes). */
  readonly expiresIn?: number | undefined
  /**
   * Never create a user: a link is mailed to known addresses only, after the
   * answer (an awaited mail would tell known addresses by its time). Default false.
   */
  readonly disableSignUp?: boolean | undefined
  /**
   * Requests per 10 seconds and client to POST /sign-in/magic-link. Default 3,
   * like the other mail-sending routes (docs/rate-limits.md).
   */
  readonly rateLimit?: { readonly window?: number | undefined; readonly max?: number | undefined } | undefined
}

export interface ResolvedMagicLinkOptions {
  readonly sendMagicLink: MagicLinkOptions['sendMagicLink']
  readonly expiresIn: number
  readonly disableSignUp: boolean
  readonly rateLimit: { readonly window: number; readonly max: number }
}

export const DEFAULT_MAGIC_LINK_EXPIRES_IN = 300

/**
 * @example
 * resolveOptions({ sendMagicLink: queueMail }).expiresIn // 300
 */
export function resolveOptions(options: MagicLinkOptions): ResolvedMagicLinkOptions {
  if (typeof options?.sendMagicLink !== 'function') throw new Error('magicLink() needs a sendMagicLink function')
  const expiresIn = options.expiresIn ?? DEFAULT_MAGIC_LINK_EXPIRES_IN
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new Error('magicLink() expiresIn must be a positive number of seconds')
  return {
    sendMagicLink: options.sendMagicLink,
    expiresIn,
    disableSignUp: options.disableSignUp ?? false,
    rateLimit: { window: options.rateLimit?.window ?? 10, max: options.rateLimit?.max ?? 3 },
  }
}
