export { lastLoginMethod } from './plugin.js'
export { defaultLoginMethod, isLoginMethod } from './methods.js'
export { DEFAULT_LAST_LOGIN_METHOD_COOKIE, DEFAULT_LAST_LOGIN_METHOD_MAX_AGE } from './defaults.js'
export type { LastLoginMethodOptions, LoginMethodContext, ResolvedLastLoginMethodOptions } from './options.js'
