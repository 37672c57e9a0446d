/**
 * @module
 * The plugin contract: a plugin is a plain object. It may add tables and
 * fields, endpoints, request hooks, database hooks, rate-limit rules, an
 * error catalogue and an `init` step run once the database is ready. The
 * types are defined in `types/contract.ts`, beside the contexts they name.
 */
import type { GatehousePlugin } from '../types/contract.js'

export type { AfterHook, AfterHookResult, BeforeHook, BeforeHookResult, CredentialRevocationReason, CredentialsRevoked, GatehousePlugin, OneTimeTokenOptions, RequestCredential, SessionExtra, SessionSource, SignInAttempt, SignInChallenge, UserInput } from '../types/contract.js'
export type { PluginRateLimitRule } from '../rate-limit/rules.js'

/**
 * Declares a plugin; the identity function keeps its literal endpoint types for `api` and the client.
 *
 * @example
 * export const auditPlugin = () => definePlugin({ id: 'audit', schema: { auditEntry: { fields: { action: { type: 'string' } } } } })
 */
export function definePlugin<const P extends GatehousePlugin>(plugin: P): P {
  return plugin
}
