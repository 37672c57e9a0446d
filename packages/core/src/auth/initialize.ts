/**
 * @module
 * The asynchronous half of `createAuth`, run once on first use: open the
 * database, build the store with the database hooks, the rate limiter, and
 * run each plugin's `init`.
 */
import type { AdapterFactory } from '../db/adapter.js'
import { createStore } from '../db/store.js'
import { createPasswordService } from '../accounts/passwords.js'
import type { AuthContext } from '../endpoint/context.js'
import { cookieNames } from '../cookies/cookie-jar.js'
import { createCachePayloadMemo } from '../session/cache-payload.js'
import type { HandlerRuntime } from '../endpoint/handler.js'
import type { Router } from '../endpoint/router.js'
import { createRateLimiter, createRateLimitStore } from '../rate-limit/rate-limiter.js'
import type { RateLimitStore } from '../rate-limit/store.js'
import { resilientStorage } from '../storage/resilient.js'
import type { ResolvedConfig } from './config.js'

export async function initialize(config: ResolvedConfig, router: Router): Promise<HandlerRuntime> {
  const { options, schema, logger } = config
  const factory = await resolveDatabase(config)
  const adapter = await factory({ schema })
  const plugins = options.plugins ?? []
  const db = createStore({
    adapter,
    schema,
    clock: config.clock,
    generateId: config.generateId,
    logger,
    hooks: [...plugins.flatMap((plugin) => (plugin.databaseHooks ? [plugin.databaseHooks] : [])), ...(options.databaseHooks ? [options.databaseHooks] : [])],
  })
  const storeConfig = { options: options.rateLimit ?? {}, adapter, secondaryStorage: options.secondaryStorage, clock: config.clock }
  // Built at start-up when core counts in it, so a store that cannot count fails now, not under attack; with core's limits
  // off, only when a plugin first counts (an API key's own window).
  const rateLimitStore = options.rateLimit?.enabled === false ? lazyStore(() => createRateLimitStore(storeConfig)) : createRateLimitStore(storeConfig)
  const passwords = createPasswordService(options)
  if (options.emailAndPassword?.enabled) await passwords.prepare()
  const context: AuthContext = {
    options,
    baseURL: config.baseURL,
    origin: config.origin,
    basePath: config.basePath,
    production: config.production,
    schema,
    adapter,
    db,
    // Sessions treat the store as a cache: its faults fall back to the database (docs/secondary-storage.md#when-redis-is-down).
    secondaryStorage: options.secondaryStorage ? resilientStorage(options.secondaryStorage, { logger }) : undefined,
    clock: config.clock,
    random: config.random,
    secrets: config.secrets,
    logger,
    cookieNames: cookieNames(config.cookieConfig),
    cookieCacheMemo: createCachePayloadMemo(),
    plugins,
    passwords,
    socialProviders: config.socialProviders,
    isTrustedOrigin: config.isTrustedOrigin,
    generateId: config.generateId,
    rateLimitStore,
  }
  const rateLimiter = createRateLimiter({
    store: rateLimitStore,
    options: options.rateLimit ?? {},
    adapter,
    secondaryStorage: options.secondaryStorage,
    clock: config.clock,
    pluginRules: plugins.flatMap((plugin) => plugin.rateLimit ?? []),
    logger,
  })
  for (const plugin of plugins) await plugin.init?.(context)
  return { context, router, cookieConfig: config.cookieConfig, rateLimiter }
}

function lazyStore(create: () => RateLimitStore): RateLimitStore {
  let store: RateLimitStore | undefined
  return { hit: (key, rule, now) => (store ??= create()).hit(key, rule, now) }
}

async function resolveDatabase(config: ResolvedConfig): Promise<AdapterFactory> {
  const { database } = config.options
  if (typeof database === 'function') return database
  if (typeof database === 'string') {
    const { sqliteAdapter } = await import('../db/kysely/sqlite.js')
    return sqliteAdapter(database)
  }
  config.logger.warn('no database configured: using an in-memory database; everything is lost on restart.')
  const { memoryAdapter } = await import('../db/memory/index.js')
  return memoryAdapter()
}
