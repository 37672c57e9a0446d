/**
 * @module
 * The lazy fields of a call's context: `request` (node:http requests have
 * no web `Request` until a handler asks) and `db` (a store bound to the
 * context, made on first use). They are accessors, so spreading a context
 * (`{ ...ctx, session }`) still yields their values, as it always did.
 *
 * They are defined here rather than as getters in an object literal: V8
 * makes fresh getter functions for every evaluation of such a literal and,
 * since no two contexts then share accessors, turns each context into a
 * slow dictionary-mode object, which cost more than a cached get-session's
 * routing and validation together. Accessors shared by every context keep
 * them on one fast hidden class; each context's own state sits under a
 * non-enumerable symbol, which spreading does not copy.
 */
import type { Store } from '../db/store.js'

const STATE = Symbol('gatehouse.lazyFields')

interface LazyState {
  readonly request: () => Request | undefined
  readonly makeStore: ((context: object) => Store) | undefined
  store: Store | undefined
}

interface Holder {
  readonly [STATE]: LazyState
}

function stateOf(holder: object): LazyState {
  const state = (holder as Partial<Holder>)[STATE]
  if (!state) throw new TypeError('Not a Gatehouse call context')
  return state
}

const requestField: PropertyDescriptor = {
  get(this: object) {
    return stateOf(this).request()
  },
  enumerable: true,
  configurable: true,
}

const dbField: PropertyDescriptor = {
  get(this: object) {
    const state = stateOf(this)
    if (state.store === undefined && state.makeStore) state.store = state.makeStore(this)
    return state.store
  },
  enumerable: true,
  configurable: true,
}

/**
 * `fields` with a `request` accessor calling `request` on each read, as the
 * literal getter did.
 *
 * @example
 * const hookContext = withLazyRequest({ path, method, body }, input.request)
 */
export function withLazyRequest<T extends object>(fields: T, request: () => Request | undefined): T & { readonly request: Request | undefined } {
  Object.defineProperty(fields, STATE, { value: { request, makeStore: undefined, store: undefined } satisfies LazyState })
  Object.defineProperty(fields, 'request', requestField)
  return withFields<T, { readonly request: Request | undefined }>(fields)
}

/**
 * `fields` with the `request` accessor and a `db` accessor that makes the
 * store once, from the finished context (the store hands it to database hooks).
 *
 * @example
 * const context = withLazyRequestAndDb({ body, query, auth }, input.request, (self) => auth.db.withEndpoint(self))
 */
export function withLazyRequestAndDb<T extends object>(
  fields: T,
  request: () => Request | undefined,
  makeStore: (context: object) => Store,
): T & { readonly request: Request | undefined; readonly db: Store } {
  Object.defineProperty(fields, STATE, { value: { request, makeStore, store: undefined } satisfies LazyState })
  Object.defineProperty(fields, 'request', requestField)
  Object.defineProperty(fields, 'db', dbField)
  return withFields<T, { readonly request: Request | undefined; readonly db: Store }>(fields)
}

/**
 * TypeScript cannot see properties added by `Object.defineProperty`; the
 * functions above have just added exactly the ones this type names.
 */
function withFields<T extends object, Added extends object>(fields: T): T & Added {
  return fields as T & Added
}
