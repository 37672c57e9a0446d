/**
 * @module
 * GET /scim/v2/Groups?filter=&startIndex=&count=&attributes=&excludedAttributes=
 * (RFC 7644 §3.4.2): the organization's teams as a ListResponse, oldest
 * first. `displayName eq`, `id eq` and `externalId eq` lookups read only
 * the matching teams; members are read only when the answer shows them or
 * the filter tests them (`members[value eq "…"]`).
 */
import { defineEndpoint } from '@gatehouse/core'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { compileFilter, mentions, requiredEquality } from '../../protocol/filter.js'
import { listResponse, readPage, slicePage } from '../../protocol/list.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { findGroupCandidates, GROUP_LOOKUP_ATTRIBUTES, listGroupViews, renderGroup } from '../../services/group-resource.js'
import { listQuery, SCIM_METADATA, requireGroups, scimHandler, single, type ListQuery } from '../scim-handler.js'

/**
 * @example
 * const response = await auth.handler(new Request(`${base}/scim/v2/Groups?excludedAttributes=members`, { headers: { authorization: `Bearer ${scimToken}` } }))
 */
export function scimListGroups(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Groups`,
    query: listQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ListQuery>(async (ctx, call) => {
      requireGroups(options)
      const page = readPage(ctx.query)
      const projection = parseProjection('Group', ctx.query)
      const text = single(ctx.query.filter)
      const filter = text === undefined || text.trim() === '' ? null : compileFilter('Group', text)
      const withMembers = projection.wants('members') || (filter !== null && mentions(filter.root, 'members'))
      const equality = filter ? requiredEquality(filter.root, GROUP_LOOKUP_ATTRIBUTES) : null
      const views = equality
        ? await findGroupCandidates(ctx.db, call.organizationId, equality, withMembers)
        : await listGroupViews(ctx.db, call.organizationId, withMembers)
      const resources = views.map((view) => renderGroup(view, call.base))
      const matched = filter ? resources.filter((resource) => filter.matches(resource)) : resources
      return scimJson(listResponse(slicePage(matched, page).map(projection.apply), matched.length, page))
    }),
  })
}
