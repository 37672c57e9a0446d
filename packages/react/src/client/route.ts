/**
 * @module
 * Client routes as data. A route names the server endpoint it calls (its
 * `auth.api` key: the client's types for the call are that endpoint's), the
 * wire method and path (docs/reference/routes.md), the shape its answer must have, and which
 * stores to refresh after it succeeds. A table maps the names users call
 * (`client.signUp.email`, `client.organization.create`) to routes, at most
 * one level deep, so the client's type is a flat mapped type over the table
 * and never parses a path string.
 */
import type { $ZodType } from 'zod/v4/core'

export interface ClientRoute {
  /** The endpoint's `auth.api` name, e.g. `signUpEmail`. */
  readonly endpoint: string
  /** POST when the endpoint takes a body, GET otherwise (the input goes in the query string). */
  readonly method: 'GET' | 'POST'
  /** The wire path below the base path; `:name` segments are filled from the input's fields named in `params`. */
  readonly path: string
  /** Input fields that go into the path (`/oauth2/client/:id` takes `id`), URL-encoded, and not into the query or body. */
  readonly params?: readonly string[]
  /** What a 2xx answer must look like; a mismatch is a client-side validation error. */
  readonly output: $ZodType
  /** Stores to refresh after a success, here and in other tabs (`session`, `activeOrganization`, ...). */
  readonly signals?: readonly string[]
  /** The body also takes the additional user fields, as on create (required ones required) or update (all optional). */
  readonly userFields?: 'create' | 'update'
  /**
   * A sign-in a second factor may hold (docs/two-factor.md#signing-in): the answer may be a plugin's
   * challenge (`{ twoFactorRedirect: true }`) instead of a session, and is typed as the union.
   */
  readonly challengeable?: boolean
  /**
   * The answer may send the browser elsewhere: when it says `{ redirect: true, url }` (a provider's
   * authorization URL), the client follows it (docs/client.md#social-sign-in). `disableRedirect` in the
   * input makes the server answer `redirect: false`, and the caller navigates itself.
   */
  readonly followsRedirect?: boolean
}

export type RouteGroup = { readonly [action: string]: ClientRoute }

export type RouteTable = { readonly [name: string]: ClientRoute | RouteGroup }

/**
 * Tells a route from a group of routes.
 *
 * @example
 * isRoute(coreRoutes.signOut) // true; isRoute(coreRoutes.signUp) // false
 */
export function isRoute(entry: ClientRoute | RouteGroup): entry is ClientRoute {
  return typeof entry.endpoint === 'string' && typeof entry.path === 'string'
}
