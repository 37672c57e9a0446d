/**
 * @module
 * The plugin's options and their defaults (docs/last-login-method.md#options).
 * The cookie's name and lifetime are the leading library's, so its
 * `lastLoginMethodClient()` reads the cookie unchanged.
 */
import type { HookContext } from '@gatehouse/core'
import { DEFAULT_LAST_LOGIN_METHOD_COOKIE, DEFAULT_LAST_LOGIN_METHOD_MAX_AGE } from './defaults.js'

/** Browsers cap a cookie's lifetime at 400 days (RFC 6265bis §5.5). */
const MAX_AGE_LIMIT = 400 * 24 * 60 * 60

/** RFC 6265 §4.1.1: a cookie name is an RFC 2616 token. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * What a resolver sees of the call that signed the user in: its route path
 * (the pattern, `/callback/:id`), parameters, input and headers. Request
 * hooks and endpoint handlers both pass their context, which has these and more.
 */
export type LoginMethodContext = Pick<HookContext, 'path' | 'method' | 'params' | 'body' | 'query' | 'headers'>

export interface LastLoginMethodOptions {
  /** The cookie's name, as it is sent (no prefix is added); `better-auth.last_used_login_method` by default. */
  readonly cookieName?: string | undefined
  /** The cookie's lifetime in seconds; 30 days by default, at most 400 days. */
  readonly maxAge?: number | undefined
  /**
   * Names the method of a call, before the built-in table is asked: a short
   * token (`[a-z0-9_-]`, 1 to 64 characters), or null (or undefined) to let the
   * table decide. Any other value is logged and nothing is stored for that call.
   */
  readonly customResolveMethod?: ((ctx: LoginMethodContext) => string | null | undefined | Promise<string | null | undefined>) | undefined
  /** Also keep the method on the user row, in a `lastLoginMethod` field; false by default. */
  readonly storeInDatabase?: boolean | undefined
  /**
   * Asked before the cookie is set (consent rules): false, or a throw, and
   * this answer sets no cookie. The sign-in and the database field are not affected.
   */
  readonly beforeStoreCookie?: ((ctx: LoginMethodContext, method: string) => boolean | Promise<boolean>) | undefined
}

export interface ResolvedLastLoginMethodOptions {
  readonly cookieName: string
  readonly maxAge: number
  readonly customResolveMethod: LastLoginMethodOptions['customResolveMethod']
  readonly storeInDatabase: boolean
  readonly beforeStoreCookie: LastLoginMethodOptions['beforeStoreCookie']
}

export function resolveOptions(options: LastLoginMethodOptions): ResolvedLastLoginMethodOptions {
  const cookieName = options.cookieName ?? DEFAULT_LAST_LOGIN_METHOD_COOKIE
  if (!COOKIE_NAME.test(cookieName)) throw new Error(`lastLoginMethod: cookieName ${JSON.stringify(cookieName)} is not a valid cookie name`)
  const maxAge = options.maxAge ?? DEFAULT_LAST_LOGIN_METHOD_MAX_AGE
  if (!Number.isInteger(maxAge) || maxAge < 1 || maxAge > MAX_AGE_LIMIT) {
    throw new Error(`lastLoginMethod: maxAge must be a whole number of seconds from 1 to ${MAX_AGE_LIMIT} (400 days)`)
  }
  return {
    cookieName,
    maxAge,
    customResolveMethod: options.customResolveMethod,
    storeInDatabase: options.storeInDatabase === true,
    beforeStoreCookie: options.beforeStoreCookie,
  }
}
