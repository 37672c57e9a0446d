/**
 * @module
 * The values the server plugin and its client half share: the cookie's
 * default name and lifetime (the leading library's, so its client reads the
 * cookie unchanged) and what a stored method may look like. Free of server
 * code, so the client bundle takes only these.
 */

/** The cookie the leading library's client half reads by default. */
export const DEFAULT_LAST_LOGIN_METHOD_COOKIE = 'better-auth.last_used_login_method'

/** 30 days, in seconds. */
export const DEFAULT_LAST_LOGIN_METHOD_MAX_AGE = 30 * 24 * 60 * 60

/**
 * What a stored method may be: lowercase letters, digits, `_` and `-`, 1 to
 * 64 of them. The cookie is read by page scripts and may be shown, so it
 * never carries markup, an address or anything else a person could be known by.
 */
export const LOGIN_METHOD = /^[a-z0-9_-]{1,64}$/
