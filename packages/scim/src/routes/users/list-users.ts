/**
 * @module
 * GET /scim/v2/Users?filter=&startIndex=&count=&attributes=&excludedAttributes=
 * (RFC 7644 §3.4.2): the token's organization's members as a ListResponse.
 * Without a filter, one page is read from the database in creation order;
 * with one, the members it may match are read (one, for Okta's and Entra
 * ID's `userName eq "…"` lookups: services/user-resource.ts), else every
 * member, and the filter decides (protocol/filter.ts). No match is
 * `totalResults: 0` with an empty `Resources`, never 404.
 */
import { defineEndpoint } from '@gatehouse/core'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { compileFilter, requiredEquality } from '../../protocol/filter.js'
import { listResponse, readPage, slicePage } from '../../protocol/list.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { findUserCandidates, listUserViews, renderUser, USER_LOOKUP_ATTRIBUTES } from '../../services/user-resource.js'
import { listQuery, SCIM_METADATA, scimHandler, single, type ListQuery } from '../scim-handler.js'

/**
 * @example
 * const response = await auth.handler(new Request(`${base}/scim/v2/Users?filter=${encodeURIComponent('userName eq "ada@acme.com"')}`, { headers: { authorization: `Bearer ${scimToken}` } }))
 */
export function scimListUsers(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Users`,
    query: listQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ListQuery>(async (ctx, call) => {
      const page = readPage(ctx.query)
      const projection = parseProjection('User', ctx.query)
      const text = single(ctx.query.filter)
      const filter = text === undefined || text.trim() === '' ? null : compileFilter('User', text)
      const groups = { groups: options.groups }
      if (!filter) {
        const total = await ctx.db.count({ model: 'member', where: { field: 'organizationId', value: call.organizationId } })
        const views = page.count === 0 ? [] : await listUserViews(ctx.db, call.organizationId, groups, { limit: page.count, offset: page.startIndex - 1 })
        return scimJson(listResponse(views.map((view) => projection.apply(renderUser(view, call.base, groups))), total, page))
      }
      const equality = requiredEquality(filter.root, USER_LOOKUP_ATTRIBUTES)
      const views = equality ? await findUserCandidates(ctx.db, call.organizationId, equality, groups) : await listUserViews(ctx.db, call.organizationId, groups)
      const matched = views.map((view) => renderUser(view, call.base, groups)).filter((resource) => filter.matches(resource))
      return scimJson(listResponse(slicePage(matched, page).map(projection.apply), matched.length, page))
    }),
  })
}
