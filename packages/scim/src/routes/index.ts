/**
 * @module
 * The SCIM plugin's endpoints by `auth.api` name (docs/scim.md#endpoints,
 * docs/reference/routes.md): the token routes the application's pages call,
 * and the SCIM 2.0 service under `/scim/v2` a directory calls.
 */
import type { ResolvedScimOptions } from '../options.js'
import { scimResourceType, scimResourceTypes } from './discovery/resource-types.js'
import { scimSchema, scimSchemas } from './discovery/schemas.js'
import { scimServiceProviderConfig } from './discovery/service-provider-config.js'
import { scimCreateGroup } from './groups/create-group.js'
import { scimDeleteGroup } from './groups/delete-group.js'
import { scimGetGroup } from './groups/get-group.js'
import { scimListGroups } from './groups/list-groups.js'
import { scimPatchGroup } from './groups/patch-group.js'
import { scimReplaceGroup } from './groups/replace-group.js'
import { generateScimToken } from './tokens/generate-token.js'
import { listScimTokens } from './tokens/list-tokens.js'
import { revokeScimToken } from './tokens/revoke-token.js'
import { scimCreateUser } from './users/create-user.js'
import { scimDeleteUser } from './users/delete-user.js'
import { scimGetUser } from './users/get-user.js'
import { scimListUsers } from './users/list-users.js'
import { scimPatchUser } from './users/patch-user.js'
import { scimReplaceUser } from './users/replace-user.js'

export function scimEndpoints(options: ResolvedScimOptions) {
  return {
    generateSCIMToken: generateScimToken(options),
    listSCIMTokens: listScimTokens(options),
    revokeSCIMToken: revokeScimToken(options),
    scimServiceProviderConfig: scimServiceProviderConfig(options),
    scimSchemas: scimSchemas(options),
    scimSchema: scimSchema(options),
    scimResourceTypes: scimResourceTypes(options),
    scimResourceType: scimResourceType(options),
    scimListUsers: scimListUsers(options),
    scimGetUser: scimGetUser(options),
    scimCreateUser: scimCreateUser(options),
    scimReplaceUser: scimReplaceUser(options),
    scimPatchUser: scimPatchUser(options),
    scimDeleteUser: scimDeleteUser(options),
    scimListGroups: scimListGroups(options),
    scimGetGroup: scimGetGroup(options),
    scimCreateGroup: scimCreateGroup(options),
    scimReplaceGroup: scimReplaceGroup(options),
    scimPatchGroup: scimPatchGroup(options),
    scimDeleteGroup: scimDeleteGroup(options),
  }
}

export type ScimEndpoints = ReturnType<typeof scimEndpoints>
