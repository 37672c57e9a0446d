/**
 * @module
 * What `anonymous(options)` accepts, and its defaults (docs/anonymous.md#options).
 */
import type { EndpointContext, HookContext, SessionWithUser, Store } from '@gatehouse/core'

/** What `onLinkAccount` is told: the guest and the account it became, and the transaction to move data in. */
export interface LinkAccount {
  readonly anonymousUser: SessionWithUser
  readonly newUser: SessionWithUser
  /** The transaction that also deletes the guest: write through it, so the move and the deletion commit together. */
  readonly db: Store
  /** The request that signed the member in. */
  readonly ctx: HookContext
}

export interface AnonymousOptions {
  /** Moves the guest's data (a cart, drafts) to the account it signed up or in as; a throw keeps the guest and its data. */
  readonly onLinkAccount?: (link: LinkAccount) => void | Promise<void>
  /** The domain of guests' placeholder addresses; `anonymous.invalid` by default (RFC 2606: never deliverable). */
  readonly emailDomainName?: string
  /** A guest's address, instead of `guest-<random>@<emailDomainName>`. */
  readonly generateRandomEmail?: () => string | Promise<string>
  /** A guest's name; `Anonymous` by default. */
  readonly generateName?: (ctx: EndpointContext) => string | Promise<string>
  /** Keep the guest after linking (its data stays; the app deletes it). False by default. */
  readonly disableDeleteAnonymousUser?: boolean
  /** Seconds after which `auth.api.cleanup()` deletes a guest; 30 days by default. */
  readonly maxAge?: number
  /** Guests one client may create per window; 5 a minute by default. */
  readonly rateLimit?: { readonly window?: number; readonly max?: number }
}

export interface ResolvedAnonymousOptions {
  readonly onLinkAccount: AnonymousOptions['onLinkAccount'] | null
  readonly emailDomainName: string
  readonly generateRandomEmail: AnonymousOptions['generateRandomEmail'] | null
  readonly generateName: AnonymousOptions['generateName'] | null
  readonly disableDeleteAnonymousUser: boolean
  readonly maxAge: number
  readonly rateLimit: { readonly window: number; readonly max: number }
}

export function resolveOptions(options: AnonymousOptions): ResolvedAnonymousOptions {
  const maxAge = options.maxAge ?? 30 * 24 * 60 * 60
  if (!Number.isFinite(maxAge) || maxAge <= 0) throw new Error('anonymous: maxAge must be a positive number of seconds')
  return {
    onLinkAccount: options.onLinkAccount ?? null,
    emailDomainName: options.emailDomainName ?? 'anonymous.invalid',
    generateRandomEmail: options.generateRandomEmail ?? null,
    generateName: options.generateName ?? null,
    disableDeleteAnonymousUser: options.disableDeleteAnonymousUser ?? false,
    maxAge,
    rateLimit: { window: options.rateLimit?.window ?? 60, max: options.rateLimit?.max ?? 5 },
  }
}
