/**
 * @module
 * Runs one endpoint call, for HTTP and `api` alike: validate input, check
 * redirect targets, run before-hooks, middlewares, the handler, after-hooks.
 * The origin check and rate limit belong to the HTTP path (handler.ts) only.
 */
import type { AuthContext, EndpointContext, HookContext } from './context.js'
import type { CookieJar } from '../cookies/cookie-jar.js'
import type { Method } from './define-endpoint.js'
import type { Route } from './router.js'
import { withLazyRequest, withLazyRequestAndDb } from './lazy-fields.js'
import { checkRedirectFields, parseInput } from './validate.js'
import { exposeSessionToken } from '../cookies/bearer-header.js'

export interface CallInput {
  readonly route: Route
  readonly method: Method
  readonly params: Record<string, string>
  readonly body: unknown
  readonly query: unknown
  readonly headers: Headers
  /** The web Request, built on first use (node:http requests have none until asked). */
  readonly request: () => Request | undefined
  readonly isServerCall: boolean
  readonly ip: string | null
  readonly cookies: CookieJar
  readonly responseHeaders: Headers
}

export async function executeEndpoint(auth: AuthContext, input: CallInput): Promise<unknown> {
  const { endpoint } = input.route
  let body = parseInput(endpoint.body, input.body, 'body')
  let query = parseInput(endpoint.query, input.query, 'query')
  let headers = input.headers
  checkRedirectFields(body, auth.isTrustedOrigin, 'body')
  checkRedirectFields(query, auth.isTrustedOrigin, 'query')

  const hookContext = (): HookContext =>
    withLazyRequest(
      {
        path: endpoint.path,
        method: input.method,
        body,
        query,
        params: input.params,
        headers,
        isServerCall: input.isServerCall,
        auth,
        cookies: input.cookies,
        responseHeaders: input.responseHeaders,
      },
      input.request,
    )

  for (const hook of beforeHooks(auth)) {
    const context = hookContext()
    if (!hook.matcher(context)) continue
    const changed = await hook.handler(context)
    if (!changed) continue
    if ('body' in changed) body = changed.body
    if ('query' in changed) query = changed.query
    if (changed.headers) headers = changed.headers
  }

  // Built once, without spreading: spreading would run the `request` getter and build a Request for nothing.
  const context: EndpointContext & Record<string, unknown> = withLazyRequestAndDb(
    {
      body,
      query,
      params: input.params,
      headers,
      method: input.method,
      path: endpoint.path,
      isServerCall: input.isServerCall,
      ip: input.ip,
      auth,
      clock: auth.clock,
      random: auth.random,
      secrets: auth.secrets,
      logger: auth.logger,
      options: auth.options,
      cookies: input.cookies,
      responseHeaders: input.responseHeaders,
      metadata: endpoint.metadata,
      redirect: (url: string, status: 301 | 302 | 303 | 307 | 308 = 302) => new Response(null, { status, headers: { location: url } }),
    },
    input.request,
    // The store hands this context to database hooks.
    (self) => auth.db.withEndpoint(self),
  )
  for (const middleware of endpoint.use ?? []) Object.assign(context, await middleware(context))

  let returned = await invokeHandler(input.route, context)

  for (const hook of afterHooks(auth)) {
    // Assigned, not spread: a spread runs the lazy `request` getter and builds a web Request on every call.
    const context = Object.assign(hookContext(), { returned })
    if (!hook.matcher(context)) continue
    const changed = await hook.handler(context)
    if (changed) returned = changed.returned
  }
  exposeSessionToken(Boolean(auth.options.bearer), input.cookies, input.responseHeaders)
  return returned
}

/**
 * Endpoints are stored with their handler's parameter erased (`ctx: never`);
 * the context built above is the one the endpoint's own definition typed,
 * middleware additions included, so calling it with that context is sound.
 */
function invokeHandler(route: Route, context: EndpointContext): Promise<unknown> | unknown {
  const handler = route.endpoint.handler as (ctx: EndpointContext) => unknown
  return handler(context)
}

const noHooks: readonly never[] = []

/** Collected on each call (options and plugins are the caller's objects); most apps have none, and then nothing is allocated. */
function beforeHooks(auth: AuthContext) {
  const own = auth.options.hooks?.before
  if (!own && !auth.plugins.some((plugin) => plugin.hooks?.before)) return noHooks
  return [...auth.plugins.flatMap((plugin) => plugin.hooks?.before ?? []), ...(own ?? [])]
}

function afterHooks(auth: AuthContext) {
  const own = auth.options.hooks?.after
  if (!own && !auth.plugins.some((plugin) => plugin.hooks?.after)) return noHooks
  return [...auth.plugins.flatMap((plugin) => plugin.hooks?.after ?? []), ...(own ?? [])]
}
