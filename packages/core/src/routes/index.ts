/**
 * @module
 * Core's endpoint map: the name is the `auth.api` method, the endpoint's
 * path the wire route.
 */
import { errorPage } from './system/error-page.js'
import { ok } from './system/ok.js'

export const coreEndpoints = {
  ok,
  error: errorPage,
} as const

export type CoreEndpoints = typeof coreEndpoints
