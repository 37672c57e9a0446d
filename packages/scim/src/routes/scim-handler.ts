/**
 * @module
 * What every `/scim/v2` route shares (docs/scim.md#endpoints): it is called
 * by a directory's servers, not a browser, and authenticated by the bearer
 * token alone, so it is exempt from the origin check (there is no cookie to
 * forge a request with); it takes its body raw, to answer a malformed one in
 * SCIM's own error shape; and every failure it expects leaves as the SCIM
 * error body. An `AuthError` from elsewhere (an application's database hook
 * vetoing a write) keeps its status and message in that body. Faults (the
 * database down) go on to core: 503 or 500, logged.
 */
import { AuthError, type EndpointContext, type EndpointMetadata } from '@gatehouse/core'
import { z } from 'zod'
import { ScimError, ScimErrors } from '../errors.js'
import { SCIM_BASE_PATH } from '../protocol/constants.js'
import { readScimBody } from '../protocol/request-body.js'
import { scimErrorResponse } from '../protocol/respond.js'
import type { ResolvedScimOptions } from '../options.js'
import { authenticate, type ScimCaller } from '../services/authenticate.js'
import type { WriteContext } from '../services/user-writes.js'

export const SCIM_METADATA = { skipOriginCheck: true, rawBody: true } as const satisfies EndpointMetadata

/** A SCIM resource or PatchOp message: the JSON text over HTTP, the object itself through `auth.api`. */
export const scimBody = z.lazy(() => z.union([z.string(), z.record(z.string(), z.unknown())]))

const stringOrList = z.union([z.string(), z.array(z.string())])

/** `attributes` and `excludedAttributes` (RFC 7644 §3.9). */
export const projectionQuery = z.lazy(() =>
  z.object({ attributes: stringOrList.optional(), excludedAttributes: stringOrList.optional() }),
)

/** A list request's query (RFC 7644 §3.4.2). */
export const listQuery = z.lazy(() =>
  z.object({
    filter: stringOrList.optional(),
    startIndex: stringOrList.optional(),
    count: stringOrList.optional(),
    attributes: stringOrList.optional(),
    excludedAttributes: stringOrList.optional(),
  }),
)

export type ProjectionQuery = z.output<typeof projectionQuery>
export type ListQuery = z.output<typeof listQuery>

export interface ScimCall extends ScimCaller {
  /** `{baseURL}/scim/v2`: resource locations start with it. */
  readonly base: string
}

/**
 * @example
 * handler: scimHandler<ProjectionQuery>(async (ctx, call) => scimJson(await readUser(ctx, call, ctx.params.id)))
 */
export function scimHandler<Q = unknown>(run: (ctx: EndpointContext<unknown, Q>, call: ScimCall) => Promise<Response>): (ctx: EndpointContext<unknown, Q>) => Promise<Response> {
  return async (ctx) => {
    try {
      const caller = await authenticate(ctx.auth, ctx.headers)
      return await run(ctx, { ...caller, base: `${ctx.auth.baseURL}${SCIM_BASE_PATH}` })
    } catch (error) {
      if (error instanceof ScimError) return scimErrorResponse(error)
      if (error instanceof AuthError && error.status < 500) {
        return scimErrorResponse(new ScimError({ ...ScimErrors.FORBIDDEN, status: error.status }, { message: error.message }))
      }
      throw error
    }
  }
}

/** A query value that may have been repeated: its first occurrence. */
export function single(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : undefined
}

/** The body of a write, parsed and checked (protocol/request-body.ts). */
export function bodyOf(ctx: EndpointContext<unknown, unknown>): Record<string, unknown> {
  return readScimBody({ body: ctx.body, contentType: ctx.headers.get('content-type'), isServerCall: ctx.isServerCall })
}

/** What the write services need of a call. */
export function writeContext(ctx: EndpointContext<unknown, unknown>, options: ResolvedScimOptions, call: ScimCall): WriteContext {
  return { auth: ctx.auth, options, organizationId: call.organizationId }
}

/** With groups off (`groups: false`) the Group routes answer as unknown ones: 404. */
export function requireGroups(options: Pick<ResolvedScimOptions, 'groups'>): void {
  if (!options.groups) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND, { message: 'Groups are not served' })
}
