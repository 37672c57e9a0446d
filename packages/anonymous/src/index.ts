export { anonymous } from './plugin.js'
export { AnonymousErrors } from './errors.js'
export type { AnonymousErrorCode } from './errors.js'
export type { AnonymousOptions, LinkAccount } from './options.js'
