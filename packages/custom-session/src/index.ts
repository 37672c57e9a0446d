export { customSession } from './plugin.js'
export type { CustomFields, CustomSessionPlugin, JsonValue } from './plugin.js'
