/**
 * @module
 * The option groups of `createAuth` (`user`, `emailAndPassword`,
 * `emailVerification`, `account`, `advanced`). They name no plugin, endpoint
 * or context type, so services below the endpoint layer (the password
 * service, say) can take their own group without importing the whole
 * `GatehouseOptions` and, through it, everything above them.
 */
import type { FieldDefinition } from '../db/schema.js'

export type { ModelNaming, NamingOptions } from '../db/naming.js'
import type { User } from './rows.js'

/** What mail callbacks receive. `request` is absent for server-side `api` calls made without one. */
export interface MailContext {
  readonly request: Request | undefined
}

export interface EmailAndPasswordOptions {
  /** Turns on the email-and-password routes. Default false. */
  readonly enabled?: boolean | undefined
  /** Refuses sign-up/email ("Email and password sign up is not enabled"); sign-in still works. */
  readonly disableSignUp?: boolean | undefined
  /** Default 8. */
  readonly minPasswordLength?: number | undefined
  /** Default 128. Longer input is refused, never truncated. */
  readonly maxPasswordLength?: number | undefined
  /** Sign the user in at sign-up. Default true. */
  readonly autoSignIn?: boolean | undefined
  /** Sign-in fails with 403 "Email not verified" until the email is verified. Default false. */
  readonly requireEmailVerification?: boolean | undefined
  /**
   * Sign-up answers a taken address exactly as a new one (200, a stand-in user, no session) instead of
   * 422 "User already exists", and sign-in answers an unverified account's right password as a wrong one
   * (401) instead of 403 "Email not verified", so neither tells which addresses have accounts
   * (docs/security.md#account-enumeration-at-sign-up). Needs `requireEmailVerification`. Default false.
   */
  readonly preventEnumeration?: boolean | undefined
  /**
   * With `preventEnumeration`: told of a sign-up with an address that already has an account, to mail its
   * owner ("someone tried to create an account with your address"). Failures are logged, never answered.
   */
  readonly onExistingUserSignUp?: ((data: { user: User }, ctx: MailContext) => Promise<void> | void) | undefined
  /** Mails the reset link; required for request-password-reset. */
  readonly sendResetPassword?: ((data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void) | undefined
  /** Seconds a reset token lives. Default 3600. */
  readonly resetPasswordTokenExpiresIn?: number | undefined
  /**
   * A password reset ends every session, OAuth grant and pending second
   * factor of the user (docs/accounts.md#password-reset). Default true;
   * `false` keeps them, which is weaker: whoever stole a session or the old
   * password stays signed in after the owner recovered the account. An
   * address that was not yet verified loses them anyway (the reset proves the mailbox).
   */
  readonly revokeSessionsOnPasswordReset?: boolean | undefined
  readonly onPasswordReset?: ((data: { user: User }) => Promise<void> | void) | undefined
  /** Replace the scrypt hasher (to migrate from another library's hashes, say), or raise its cost. */
  readonly password?: {
    readonly hash?: ((password: string) => Promise<string>) | undefined
    readonly verify?: ((data: { hash: string; password: string }) => Promise<boolean>) | undefined
    /**
     * scrypt parameters of new hashes; default N=16384, r=16, p=1. A stored hash with any of them
     * lower is hashed again with these at the user's next sign-in (docs/passwords.md#raising-the-cost).
     * Not with a replaced `hash`.
     */
    readonly scrypt?: { readonly N?: number | undefined; readonly r?: number | undefined; readonly p?: number | undefined } | undefined
  } | undefined
}

export interface EmailVerificationOptions {
  /** Mails the verification link; without it verification mails cannot be sent. */
  readonly sendVerificationEmail?: ((data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void) | undefined
  /** Send the verification mail at sign-up. Default false. */
  readonly sendOnSignUp?: boolean | undefined
  /** Create a session when the email is verified. Default false. */
  readonly autoSignInAfterVerification?: boolean | undefined
  /** Seconds a verification token lives. Default 3600. */
  readonly expiresIn?: number | undefined
  readonly afterEmailVerification?: ((user: User) => Promise<void> | void) | undefined
}

export interface UserOptions {
  readonly additionalFields?: Readonly<Record<string, FieldDefinition>> | undefined
  readonly changeEmail?: {
    readonly enabled?: boolean | undefined
    /** Mails the confirmation link to the current address when it is verified (docs/accounts.md#changing-the-email). */
    readonly sendChangeEmailVerification?:
      | ((data: { user: User; newEmail: string; url: string; token: string }, ctx: MailContext) => Promise<void> | void)
      | undefined
  } | undefined
  readonly deleteUser?: {
    readonly enabled?: boolean | undefined
    /** Mails the deletion link; when set, delete-user without password or token sends it instead of deleting. */
    readonly sendDeleteAccountVerification?: ((data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void) | undefined
    /** Seconds a delete-account token lives. Default 86400. */
    readonly deleteTokenExpiresIn?: number | undefined
    readonly beforeDelete?: ((user: User) => Promise<void> | void) | undefined
    readonly afterDelete?: ((user: User) => Promise<void> | void) | undefined
  } | undefined
}

export interface AccountOptions {
  readonly accountLinking?: {
    /**
     * Link a social account to an existing user with the same email, and allow link-social
     * (docs/social.md#account-linking). Default true; the linking rules still apply.
     */
    readonly enabled?: boolean | undefined
    /** Allow unlinking the last account, which leaves the user no way to sign in. Default false. */
    readonly allowUnlinkingAll?: boolean | undefined
    /** Providers whose emails count as verified for implicit linking, whatever they report. */
    readonly trustedProviders?: readonly string[] | undefined
    /** link-social may link a provider account whose email differs from the user's. Default false. */
    readonly allowDifferentEmails?: boolean | undefined
  } | undefined
}

/** Session lifetimes (docs/sessions.md#lifetimes-seconds), in seconds; `session/session-options.ts` fills in the defaults. */
export interface SessionOptions {
  /** Lifetime of a session. Default 7 days. */
  readonly expiresIn?: number | undefined
  /** A read older than this since the last update extends the session. Default 1 day. */
  readonly updateAge?: number | undefined
  /** Sensitive actions need a session updated within this. Default 1 day; 0 turns the check off. */
  readonly freshAge?: number | undefined
  /** Serve get-session from a signed cookie for `maxAge` seconds (default 60) without touching the database. */
  readonly cookieCache?: { readonly enabled?: boolean | undefined; readonly maxAge?: number | undefined } | undefined
}

export interface AdvancedOptions {
  /** Default `gatehouse`: cookies are named `gatehouse.session_token` and so on. */
  readonly cookiePrefix?: string | undefined
  /** Default: true when `baseURL` is https (adds `Secure` and the `__Host-` prefix, `__Secure-` with `crossSubDomainCookies`). */
  readonly useSecureCookies?: boolean | undefined
  /**
   * Shares cookies with subdomains of `domain`: they get a `Domain` and the `__Secure-` prefix instead of `__Host-`,
   * so every host under `domain` can also set them (docs/security.md#cookie-tossing-from-a-sibling-subdomain).
   */
  readonly crossSubDomainCookies?: { readonly enabled: boolean; readonly domain: string } | undefined
  /** Turns off the origin check (docs/security.md#trusted-origins-securityoriginsts). Only for local development. */
  readonly disableOriginCheck?: boolean | undefined
  readonly ipAddress?: {
    /** Headers that carry the client address, in order of preference. Default `['x-forwarded-for']`. */
    readonly ipAddressHeaders?: readonly string[] | undefined
    readonly disableIpTracking?: boolean | undefined
    /** Proxies in front of the server that append to x-forwarded-for. Default 1. */
    readonly trustedProxyCount?: number | undefined
  } | undefined
  readonly generateId?: ((model: string) => string) | undefined
}
