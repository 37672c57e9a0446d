/**
 * @module
 * The plugin contract: a plugin is a plain object. It may add tables and
 * fields, endpoints, request hooks, database hooks, rate-limit rules, an
 * error catalogue and an `init` step run once the database is ready.
 */
import type { SchemaExtension } from '../db/schema.js'
import type { DatabaseHooks } from '../db/store.js'
import type { EndpointMap } from '../endpoint/define-endpoint.js'
import type { AuthContext, HookContext } from '../endpoint/context.js'
import type { ErrorCatalogue } from '../errors/catalogue.js'
import type { PluginRateLimitRule } from '../rate-limit/rules.js'

export type { PluginRateLimitRule }

/** Runs before the handler: may replace body, query or headers, or throw an `AuthError` to stop the request. */
export interface BeforeHook {
  readonly matcher: (ctx: HookContext) => boolean
  readonly handler: (ctx: HookContext) => Promise<BeforeHookResult | void> | BeforeHookResult | void
}

export interface BeforeHookResult {
  readonly body?: unknown
  readonly query?: unknown
  readonly headers?: Headers
}

/** Runs after the handler: sees what it returned and may replace it (or throw). */
export interface AfterHook {
  readonly matcher: (ctx: HookContext) => boolean
  readonly handler: (ctx: HookContext & { readonly returned: unknown }) => Promise<AfterHookResult | void> | AfterHookResult | void
}

export interface AfterHookResult {
  readonly returned: unknown
}

export interface GatehousePlugin {
  /** Unique among the plugins of one `createAuth`. */
  readonly id: string
  readonly schema?: SchemaExtension
  readonly endpoints?: EndpointMap
  readonly hooks?: { readonly before?: readonly BeforeHook[]; readonly after?: readonly AfterHook[] }
  readonly databaseHooks?: DatabaseHooks
  readonly rateLimit?: readonly PluginRateLimitRule[]
  readonly errors?: ErrorCatalogue
  readonly init?: (ctx: AuthContext) => Promise<void> | void
}

/**
 * Declares a plugin; the identity function keeps its literal endpoint types for `api` and the client.
 *
 * @example
 * export const auditPlugin = () => definePlugin({ id: 'audit', schema: { auditEntry: { fields: { action: { type: 'string' } } } } })
 */
export function definePlugin<const P extends GatehousePlugin>(plugin: P): P {
  return plugin
}
