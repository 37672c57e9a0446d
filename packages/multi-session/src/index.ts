export { multiSession } from './plugin.js'
export { MultiSessionErrors } from './errors.js'
export type { MultiSessionErrorCode } from './errors.js'
export type { MultiSessionOptions } from './options.js'
