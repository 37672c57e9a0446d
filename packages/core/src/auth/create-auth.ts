/**
 * @module
 * `createAuth(options)`: validates the configuration at start-up (a missing
 * base URL or a weak production secret fails here, not on the first
 * request), merges the schema and endpoints of core and plugins, and returns
 * the web-standard `handler`, the typed server-side `api` and the options.
 * The database is opened lazily on first use, so `createAuth` stays synchronous.
 */
import { createApi, type Api } from '../endpoint/api.js'
import type { EndpointMap } from '../endpoint/define-endpoint.js'
import { handleIncoming, handleRequest, type HandlerOptions, type HandlerRuntime } from '../endpoint/handler.js'
import { handleIncomingKey, type Incoming } from '../endpoint/incoming.js'
import type { Outgoing } from '../endpoint/respond.js'
import { createRouter } from '../endpoint/router.js'
import { coreEndpoints, type CoreEndpoints } from '../routes/index.js'
import type { GatehouseOptions } from '../options.js'
import type { GatehousePlugin } from '../plugins/types.js'
import type { InferFields } from '../db/infer.js'
import type { Schema } from '../db/schema.js'
import type { SessionWithUser } from '../types/rows.js'
import { resolveConfig } from './config.js'
import { initialize } from './initialize.js'

/** The endpoints of a plugin list, merged: a short tuple recursion, not a union-to-intersection. */
export type PluginEndpoints<P> = P extends readonly [infer Head, ...infer Rest]
  ? (Head extends { endpoints: infer E extends EndpointMap } ? E : {}) & PluginEndpoints<Rest>
  : {}

export type AuthEndpoints<O extends GatehouseOptions> = CoreEndpointsWith<CustomSessionFields<O>> &
  PluginEndpoints<NonNullable<O['plugins']> extends readonly GatehousePlugin[] ? NonNullable<O['plugins']> : []>

/**
 * The fields a custom-session plugin adds to get-session's answer
 * (docs/custom-session.md): a distributive lookup over the plugin union, no recursion.
 */
export type CustomSessionFields<O extends GatehouseOptions> = SessionFieldsOf<NonNullable<O['plugins']>[number]>
type SessionFieldsOf<P> = P extends { readonly $sessionFields?: infer X }
  ? '$sessionFields' extends keyof P
    ? Exclude<X, undefined>
    : never
  : never

/** Core's endpoints, with get-session answering the custom fields when a plugin adds some. */
type CoreEndpointsWith<X> = [X] extends [never]
  ? CoreEndpoints
  : Omit<CoreEndpoints, 'getSession'> & {
      readonly getSession: Omit<CoreEndpoints['getSession'], 'handler'> & {
        handler(ctx: never): Promise<(SessionWithUser & X) | null>
      }
    }

/** The additional user fields of the options, as a type. */
export type UserFields<O extends GatehouseOptions> = InferFields<NonNullable<O['user']>['additionalFields']>
/** The additional session fields of the options, as a type. */
export type SessionFields<O extends GatehouseOptions> = InferFields<NonNullable<O['session']>['additionalFields']>

export interface Auth<O extends GatehouseOptions = GatehouseOptions> {
  /**
   * Answers a request for any route below `basePath`; mount it in any framework.
   * Pass the connection's address as `ip` where the framework knows it (Hono on
   * node, Bun, Deno): it counts as one more x-forwarded-for hop, as the socket's
   * peer does in `toNodeHandler`, so rate limits and `ctx.ip` see the client
   * (docs/rate-limits.md#web-handlers).
   *
   * @example
   * app.on(['GET', 'POST'], '/api/auth/*', (c) => auth.handler(c.req.raw, { ip: c.env.incoming.socket.remoteAddress }))
   */
  readonly handler: (request: Request, options?: HandlerOptions) => Promise<Response>
  /** The endpoints called in-process: `await auth.api.getSession({ headers })`. */
  readonly api: Api<AuthEndpoints<O>, UserFields<O>, SessionFields<O>>
  readonly options: O
  /** The resolved runtime (database, keys, clock), opened on first use. */
  readonly $context: Promise<HandlerRuntime['context']>
  /**
   * The merged schema (core, plugins, additional fields, with their table and
   * column names), read without opening the database: what `gatehouse
   * generate --format drizzle|prisma` writes from, so it works before the
   * tables, or the Drizzle schema module the adapter needs, exist
   * (docs/adapters.md#set-up).
   */
  readonly $schema: Schema
  /** The pipeline without web Request/Response objects, for server glue (`toNodeHandler(auth)`). */
  readonly [handleIncomingKey]: (incoming: Incoming) => Promise<Outgoing>
  /**
   * Closes connections the database adapter opened itself, once the requests
   * and `api` calls in flight have finished (or `timeoutMs`, default 10 000,
   * has passed); a later call opens them again. A secondary storage is the
   * application's to close (docs/core.md#shutting-down).
   */
  close(options?: { readonly timeoutMs?: number }): Promise<void>
}

/**
 * @example
 * export const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   secret: process.env.AUTH_SECRET,
 *   database: './data/gatehouse.db',
 * })
 * // node:http, Hono, Next, …: hand it web-standard Requests.
 * const response = await auth.handler(request)
 */
export function createAuth<const O extends GatehouseOptions>(options: O): Auth<O> {
  const config = resolveConfig(options)
  const endpoints = mergeEndpoints(coreEndpoints, options.plugins ?? [])
  const router = createRouter(endpoints)

  let runtime: Promise<HandlerRuntime> | undefined
  // Kept, failed or not: a failure is logged once here, with its cause, and each later request answers 500 with it
  // (toNodeHandler writes that 500 and has no logger of its own, so without this line nothing would say why).
  const ready = () =>
    (runtime ??= initialize(config, router).catch((error: unknown) => {
      config.logger.error('initialization failed (opening the database or a plugin init): every request will answer 500 until restart', describeError(error))
      throw error
    }))
  const inFlight = createInFlight()

  return {
    handler: (request, handlerOptions) => inFlight.track(async () => handleRequest(await ready(), request, handlerOptions)),
    [handleIncomingKey]: (incoming) => inFlight.track(async () => handleIncoming(await ready(), incoming)),
    api: trackApi(createApi(endpoints, ready), inFlight) as Api<AuthEndpoints<O>, UserFields<O>, SessionFields<O>>,
    options,
    get $context() {
      return ready().then((resolved) => resolved.context)
    },
    $schema: config.schema,
    async close(closeOptions = {}) {
      if (!runtime) return
      const closing = runtime
      // The next use opens the database again, through the same factory.
      runtime = undefined
      // A pool ended under a request would turn its last queries into errors (a sign-up half written is rolled back, but still lost).
      await inFlight.drained(closeOptions.timeoutMs ?? 10_000)
      const { context } = await closing
      await context.adapter.close?.()
    },
  }
}

/** Name, message and code of an error and of its causes: what an operator needs to fix a start-up fault. */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) }
  const code = (error as { code?: unknown }).code
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.cause === undefined ? {} : { cause: describeError(error.cause) }),
  }
}

interface InFlight {
  track<T>(run: () => Promise<T>): Promise<T>
  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>
}

function createInFlight(): InFlight {
  let count = 0
  let waiters: Array<() => void> = []
  return {
    async track(run) {
      count += 1
      try {
        return await run()
      } finally {
        count -= 1
        if (count === 0) for (const wake of waiters.splice(0)) wake()
      }
    },
    async drained(timeoutMs) {
      if (count === 0) return
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          waiters = waiters.filter((wake) => wake !== done)
          resolve()
        }
        const timer = setTimeout(done, timeoutMs)
        waiters.push(done)
      })
    },
  }
}

/** The same api, each call counted in flight. */
function trackApi<A extends object>(api: A, inFlight: InFlight): A {
  const methods = api as Record<string, (...args: never[]) => Promise<unknown>>
  for (const [name, method] of Object.entries(methods)) {
    methods[name] = (...args: never[]) => inFlight.track(() => method(...args))
  }
  return api
}

function mergeEndpoints(core: EndpointMap, plugins: readonly GatehousePlugin[]): EndpointMap {
  const merged: Record<string, EndpointMap[string]> = { ...core }
  const seen = new Set<string>()
  for (const plugin of plugins) {
    if (seen.has(plugin.id)) throw new Error(`Plugin "${plugin.id}" is registered twice`)
    seen.add(plugin.id)
    for (const [name, endpoint] of Object.entries(plugin.endpoints ?? {})) {
      // The same endpoint object under the same name is one route: the shared `getJwks` of every plugin that signs.
      if (merged[name] === endpoint) continue
      if (name in merged) throw new Error(`Endpoint name "${name}" of plugin "${plugin.id}" is already taken`)
      merged[name] = endpoint
    }
  }
  // Two plugins each adding fields to get-session would silently overwrite each other's.
  if (plugins.filter((plugin) => plugin.customizeSession).length > 1) {
    throw new Error('Only one plugin may customise the get-session answer (customizeSession)')
  }
  return merged
}
