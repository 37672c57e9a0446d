/**
 * @module
 * Endpoints as data. `defineEndpoint` records the method, the wire path
 * (docs/reference/routes.md), the zod schemas of the input and a handler that
 * is a pure function of its context. The same definition serves HTTP
 * requests through `auth.handler` and server-side calls through `auth.api`.
 * `AnyEndpoint`, `EndpointMap` and `Middleware` name the contexts, so they
 * live in `types/contract.ts`; the leaf types in `types/endpoint.ts`.
 */
import type { z } from 'zod'
import type { AnyEndpoint, EndpointContext, EndpointMap, Middleware } from '../types/contract.js'
import type { EndpointMetadata, Method, Schema } from '../types/endpoint.js'

export type { AnyEndpoint, EndpointMap, Middleware } from '../types/contract.js'
export type { EndpointMetadata, Method, Schema } from '../types/endpoint.js'

/** The context additions of a list of middlewares: each one's result, merged. */
export type UseResult<U extends readonly Middleware[]> = U extends readonly [
  Middleware<infer Head>,
  ...infer Rest extends readonly Middleware[],
]
  ? Head & UseResult<Rest>
  : unknown

type Parsed<S> = S extends Schema ? z.output<S> : undefined

export interface EndpointDefinition<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  U extends readonly Middleware[] = readonly Middleware[],
  R = unknown,
> {
  readonly method: Method | readonly Method[]
  /** The wire path below the base path: `/sign-up/email`, `/reset-password/:token`. */
  readonly path: string
  readonly body?: B
  readonly query?: Q
  readonly use?: U
  /** Callable only through `auth.api`, never routed (set-password: docs/accounts.md#changing-and-setting-a-password). */
  readonly serverOnly?: boolean
  readonly metadata?: EndpointMetadata
  readonly handler: (ctx: EndpointContext<Parsed<B>, Parsed<Q>> & UseResult<U>) => Promise<R> | R
}

export type Endpoint<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  U extends readonly Middleware[] = readonly Middleware[],
  R = unknown,
> = EndpointDefinition<B, Q, U, R> & { readonly kind: 'endpoint' }

/**
 * @example
 * export const checkSlug = defineEndpoint({
 *   method: 'POST',
 *   path: '/organization/check-slug',
 *   body: z.object({ slug: z.string().min(1) }),
 *   handler: async ({ body, db }) => ({ status: !(await db.findOne({ model: 'organization', where: { field: 'slug', value: body.slug } })) }),
 * })
 */
export function defineEndpoint<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  const U extends readonly Middleware[] = readonly [],
  R = unknown,
>(definition: EndpointDefinition<B, Q, U, R>): Endpoint<B, Q, U, R> {
  if (!definition.path.startsWith('/')) throw new Error(`Endpoint path must start with "/": ${definition.path}`)
  return Object.freeze({ ...definition, kind: 'endpoint' as const })
}

/** Input and output types of an endpoint, for `api` and the client. */
export type EndpointBody<E> = E extends { body?: infer B } ? (B extends Schema ? z.input<B> : undefined) : undefined
export type EndpointQuery<E> = E extends { query?: infer Q } ? (Q extends Schema ? z.input<Q> : undefined) : undefined
export type EndpointResult<E> = E extends { handler: (ctx: never) => infer R } ? Awaited<R> : never

export function endpointMethods(endpoint: AnyEndpoint): readonly Method[] {
  return typeof endpoint.method === 'string' ? [endpoint.method] : endpoint.method
}

/**
 * The same endpoints with `metadata` added to each: a plugin marks all its
 * routes at once, e.g. `cookieOnly` for a protocol whose bearer tokens are
 * its own (docs/sessions.md#credentials-other-than-the-cookie). Each endpoint
 * keeps its input and output types; only its metadata object is replaced.
 *
 * @example
 * endpoints: withMetadata(oidcProviderEndpoints(resolved), { cookieOnly: true })
 */
export function withMetadata<const M extends EndpointMap>(endpoints: M, metadata: EndpointMetadata): M {
  const marked: Record<string, AnyEndpoint> = {}
  for (const [name, endpoint] of Object.entries(endpoints)) {
    marked[name] = Object.freeze({ ...endpoint, metadata: { ...endpoint.metadata, ...metadata } })
  }
  // Same keys, same endpoints but for the metadata object, which the type of M does not narrow.
  return marked as M
}
