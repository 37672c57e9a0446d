/**
 * @module
 * What `createAuth` accepts. Everything has a secure default; only `baseURL`
 * is required (the server never learns its own address from a request's
 * Host header, which a client controls), and in production `secret` too.
 */
import type { AdapterFactory } from './db/adapter.js'
import type { FieldDefinition, SchemaExtension } from './db/schema.js'
import type { DatabaseHooks } from './db/store.js'
import type { Clock } from './crypto/clock.js'
import type { Random } from './crypto/random.js'
import type { Logger, LoggerOptions } from './endpoint/logger.js'
import type { AfterHook, BeforeHook, GatehousePlugin } from './plugins/types.js'
import type { RateLimitOptions } from './rate-limit/rules.js'
import type { SecondaryStorage } from './storage/types.js'
import type { SessionOptions } from './session/session-options.js'
import type { User } from './session/types.js'

export interface GatehouseOptions {
  /** Shown in mails and as the issuer name. */
  readonly appName?: string
  /** The application's public URL, e.g. `https://app.example.com`. Required. */
  readonly baseURL: string
  /** Where the routes are mounted below `baseURL`. Default `/api/auth`. */
  readonly basePath?: string
  /**
   * Secret for signing cookies and tokens: at least 32 characters. A list
   * rotates keys: the first signs, all verify. Falls back to the
   * GATEHOUSE_SECRET environment variable; required in production.
   */
  readonly secret?: string | readonly string[]
  /**
   * An adapter factory, or a SQLite file path (the embedded default). Without
   * one, an in-memory database is used and a warning says so; production refuses that.
   */
  readonly database?: AdapterFactory | string
  readonly secondaryStorage?: SecondaryStorage
  /** Extra origins allowed to call and to be redirected to: exact origins or `https://*.example.com` patterns. */
  readonly trustedOrigins?: readonly string[]
  readonly plugins?: readonly GatehousePlugin[]
  readonly rateLimit?: RateLimitOptions
  readonly hooks?: { readonly before?: readonly BeforeHook[]; readonly after?: readonly AfterHook[] }
  readonly databaseHooks?: DatabaseHooks
  /** Application tables, or fields added to existing ones. */
  readonly schema?: SchemaExtension
  readonly user?: UserOptions
  readonly emailAndPassword?: EmailAndPasswordOptions
  readonly emailVerification?: EmailVerificationOptions
  readonly account?: AccountOptions
  readonly session?: SessionOptions & { readonly additionalFields?: Readonly<Record<string, FieldDefinition>> }
  readonly advanced?: AdvancedOptions
  readonly logger?: LoggerOptions | Logger
  /** Defaults to `process.env.NODE_ENV === 'production'`. */
  readonly production?: boolean
  /** Injected time and randomness, for tests. */
  readonly clock?: Clock
  readonly random?: Random
}

/** What mail callbacks receive. `request` is absent for server-side `api` calls made without one. */
export interface MailContext {
  readonly request: Request | undefined
}

export interface EmailAndPasswordOptions {
  /** Turns on the email-and-password routes. Default false. */
  readonly enabled?: boolean
  /** Refuses sign-up/email ("Email and password sign up is not enabled"); sign-in still works. */
  readonly disableSignUp?: boolean
  /** Default 8. */
  readonly minPasswordLength?: number
  /** Default 128. Longer input is refused, never truncated. */
  readonly maxPasswordLength?: number
  /** Sign the user in at sign-up. Default true. */
  readonly autoSignIn?: boolean
  /** Sign-in fails with 403 "Email not verified" until the email is verified. Default false. */
  readonly requireEmailVerification?: boolean
  /** Mails the reset link; required for request-password-reset. */
  readonly sendResetPassword?: (data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void
  /** Seconds a reset token lives. Default 3600. */
  readonly resetPasswordTokenExpiresIn?: number
  /** Revoke every session of the user when the password is reset. Default false. */
  readonly revokeSessionsOnPasswordReset?: boolean
  readonly onPasswordReset?: (data: { user: User }) => Promise<void> | void
  /** Replace the scrypt hasher (to migrate from another library's hashes, say). */
  readonly password?: {
    readonly hash?: (password: string) => Promise<string>
    readonly verify?: (data: { hash: string; password: string }) => Promise<boolean>
  }
}

export interface EmailVerificationOptions {
  /** Mails the verification link; without it verification mails cannot be sent. */
  readonly sendVerificationEmail?: (data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void
  /** Send the verification mail at sign-up. Default false. */
  readonly sendOnSignUp?: boolean
  /** Create a session when the email is verified. Default false. */
  readonly autoSignInAfterVerification?: boolean
  /** Seconds a verification token lives. Default 3600. */
  readonly expiresIn?: number
  readonly afterEmailVerification?: (user: User) => Promise<void> | void
}

export interface UserOptions {
  readonly additionalFields?: Readonly<Record<string, FieldDefinition>>
  readonly changeEmail?: {
    readonly enabled?: boolean
    /** Mails the confirmation link to the current address when it is verified (SPEC §4 "Email"). */
    readonly sendChangeEmailVerification?: (
      data: { user: User; newEmail: string; url: string; token: string },
      ctx: MailContext,
    ) => Promise<void> | void
  }
  readonly deleteUser?: {
    readonly enabled?: boolean
    /** Mails the deletion link; when set, delete-user without password or token sends it instead of deleting. */
    readonly sendDeleteAccountVerification?: (data: { user: User; url: string; token: string }, ctx: MailContext) => Promise<void> | void
    /** Seconds a delete-account token lives. Default 86400. */
    readonly deleteTokenExpiresIn?: number
    readonly beforeDelete?: (user: User) => Promise<void> | void
    readonly afterDelete?: (user: User) => Promise<void> | void
  }
}

export interface AccountOptions {
  readonly accountLinking?: {
    readonly enabled?: boolean
    /** Allow unlinking the last account (SPEC §5). Default false. */
    readonly allowUnlinkingAll?: boolean
  }
}

export interface AdvancedOptions {
  /** Default `gatehouse`: cookies are named `gatehouse.session_token` and so on. */
  readonly cookiePrefix?: string
  /** Default: true when `baseURL` is https (adds `Secure` and the `__Secure-` prefix). */
  readonly useSecureCookies?: boolean
  /** Shares cookies with subdomains of `domain`. */
  readonly crossSubDomainCookies?: { readonly enabled: boolean; readonly domain: string }
  /** Turns off the SPEC §5 origin check. Only for local development. */
  readonly disableOriginCheck?: boolean
  readonly ipAddress?: {
    /** Headers that carry the client address, in order of preference. Default `['x-forwarded-for']`. */
    readonly ipAddressHeaders?: readonly string[]
    readonly disableIpTracking?: boolean
    /** Proxies in front of the server that append to x-forwarded-for. Default 1. */
    readonly trustedProxyCount?: number
  }
  readonly generateId?: (model: string) => string
}
