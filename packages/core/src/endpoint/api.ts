/**
 * @module
 * `auth.api`: the same endpoints called in-process. No origin check and no
 * rate limit (the caller is the application itself); server-only endpoints
 * are reachable only here. Results are the handler's typed data; errors are
 * thrown as `AuthError`; `asResponse` returns the HTTP Response instead.
 */
import type { AuthContext } from './context.js'
import { createCookieJar } from '../cookies/cookie-jar.js'
import type { CookieConfig } from '../cookies/cookies.js'
import {
  endpointMethods,
  type AnyEndpoint,
  type EndpointBody,
  type EndpointMap,
  type EndpointQuery,
  type EndpointResult,
  type Method,
} from './define-endpoint.js'
import { executeEndpoint } from './execute.js'
import { errorResponse, toAuthError, toResponse } from './respond.js'
import { clientIpFromHeaders, headersTrusted } from '../security/ip.js'
import { toHeaders, type HeadersInput } from './headers-input.js'
import type { Session, User } from '../types/rows.js'

// A body or query whose fields are all optional may be left out entirely.
type InputField<Key extends string, T> = [T] extends [undefined]
  ? { readonly [K in Key]?: undefined }
  : undefined extends T
    ? { readonly [K in Key]?: T }
    : {} extends T
      ? { readonly [K in Key]?: T }
      : { readonly [K in Key]: T }

export type ApiArgs<E> = InputField<'body', EndpointBody<E>> &
  InputField<'query', EndpointQuery<E>> & {
    /**
     * Request headers: the Cookie header carries the session for session-bound endpoints.
     * Web `Headers`, pairs, a record, or node:http's `req.headers` as it is (docs/endpoints.md#api-calls).
     */
    readonly headers?: HeadersInput
    readonly request?: Request
    readonly params?: Readonly<Record<string, string>>
  }

type Params<E> = {} extends ApiArgs<E> ? [args?: ApiArgs<E>] : [args: ApiArgs<E>]

/**
 * A result with the configured additional fields added to every user and
 * session in it. Results are shallow (a few levels of plain objects), so the
 * walk stays cheap for the type checker.
 */
export type WithFields<T, U, S> = T extends Date | Response
  ? T
  : T extends User
    ? T & U
    : T extends Session
      ? T & S
      : T extends readonly (infer Item)[]
        ? WithFields<Item, U, S>[]
        : T extends object
          ? { [K in keyof T]: WithFields<T[K], U, S> }
          : T

// The plain call comes last, so `ReturnType<typeof auth.api.x>` is the data.
export interface ApiMethod<E, U = {}, S = {}> {
  (args: ApiArgs<E> & { readonly asResponse: true }): Promise<Response>
  (args: ApiArgs<E> & { readonly returnHeaders: true }): Promise<{
    headers: Headers
    response: WithFields<EndpointResult<E>, U, S>
  }>
  (...args: Params<E>): Promise<WithFields<EndpointResult<E>, U, S>>
}

/** `U` and `S`: the additional user and session fields, inferred from the options. */
export type Api<M extends EndpointMap, U = {}, S = {}> = { readonly [K in keyof M]: ApiMethod<M[K], U, S> }

interface RawArgs {
  readonly body?: unknown
  readonly query?: unknown
  readonly headers?: HeadersInput
  readonly request?: Request
  readonly params?: Readonly<Record<string, string>>
  readonly asResponse?: boolean
  readonly returnHeaders?: boolean
}

export function createApi<M extends EndpointMap>(
  endpoints: M,
  runtime: () => Promise<{ context: AuthContext; cookieConfig: CookieConfig }>,
): Api<M> {
  const api: Record<string, (args?: RawArgs) => Promise<unknown>> = {}
  for (const [name, endpoint] of Object.entries(endpoints)) {
    api[name] = (args = {}) => call(name, endpoint, args, runtime)
  }
  return api as Api<M>
}

/**
 * The method a server-side call stands for: without a body the endpoint's
 * first method, with one its first method that takes a body (POST for a
 * GET-and-POST endpoint, PUT or PATCH for the SCIM routes that only have those).
 */
function callMethod(endpoint: AnyEndpoint, withBody: boolean): Method {
  const methods = endpointMethods(endpoint)
  if (!withBody) return methods[0] ?? 'GET'
  return methods.find((method) => method !== 'GET') ?? 'POST'
}

async function call(
  name: string,
  endpoint: AnyEndpoint,
  args: RawArgs,
  runtime: () => Promise<{ context: AuthContext; cookieConfig: CookieConfig }>,
): Promise<unknown> {
  const { context, cookieConfig } = await runtime()
  const headers = toHeaders(args.headers ?? args.request?.headers)
  const cookies = createCookieJar({ header: headers.get('cookie'), config: cookieConfig, secrets: context.secrets })
  const responseHeaders = new Headers()
  const ipOptions = context.options.advanced?.ipAddress
  try {
    const returned = await executeEndpoint(context, {
      route: { name, endpoint },
      method: callMethod(endpoint, args.body !== undefined),
      params: { ...args.params },
      body: args.body,
      query: args.query ?? {},
      headers,
      request: () => args.request,
      isServerCall: true,
      ip: clientIpFromHeaders(headers, {
        headers: ipOptions?.ipAddressHeaders,
        disabled: ipOptions?.disableIpTracking,
        trustedProxyCount: ipOptions?.trustedProxyCount,
        // The application hands over its request's headers: believed as the handler believes them with no connection known.
        trusted: headersTrusted(ipOptions, false),
      }),
      cookies,
      responseHeaders,
    })
    if (args.asResponse) return toResponse(returned, cookies.outgoing, responseHeaders)
    if (args.returnHeaders) {
      for (const cookie of cookies.outgoing) responseHeaders.append('set-cookie', cookie)
      return { headers: responseHeaders, response: returned }
    }
    return returned
  } catch (error) {
    if (args.asResponse) return errorResponse(error, cookies.outgoing, responseHeaders, context)
    throw toAuthError(error, context)
  }
}
