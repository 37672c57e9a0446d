/**
 * @module
 * Paging of list answers (RFC 7644 §3.4.2.4) and the ListResponse message
 * (§3.4.2): `startIndex` is 1-based (below 1 reads as 1), `count` is at most
 * `MAX_RESULTS` (more is lowered, below 0 reads as 0), both default to the
 * first page of `MAX_RESULTS`. Sorting is not offered
 * (ServiceProviderConfig says so); answers come in creation order.
 */
import { ScimError, ScimErrors } from '../errors.js'
import { LIST_RESPONSE_SCHEMA, MAX_RESULTS } from './constants.js'

export interface Page {
  /** 1-based, as sent back in the answer. */
  readonly startIndex: number
  readonly count: number
}

/**
 * @example
 * readPage({ startIndex: '0', count: '500' }) // { startIndex: 1, count: 100 }
 */
export function readPage(query: { readonly startIndex?: unknown; readonly count?: unknown }): Page {
  const startIndex = integer(query.startIndex, 'startIndex') ?? 1
  const count = integer(query.count, 'count') ?? MAX_RESULTS
  return { startIndex: Math.max(1, startIndex), count: Math.min(MAX_RESULTS, Math.max(0, count)) }
}

function integer(value: unknown, name: string): number | undefined {
  const single = Array.isArray(value) ? value[0] : value
  if (single === undefined || single === '') return undefined
  const parsed = typeof single === 'number' ? single : typeof single === 'string' && /^\s*-?\d{1,9}\s*$/.test(single) ? Number(single) : Number.NaN
  if (!Number.isSafeInteger(parsed)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${name} must be an integer` })
  return parsed
}

/** The ListResponse of one page of `resources` out of `totalResults`. */
export function listResponse(resources: readonly unknown[], totalResults: number, page: Page) {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  }
}

/** The page's slice of an array already filtered in memory. */
export function slicePage<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.startIndex - 1, page.startIndex - 1 + page.count)
}
