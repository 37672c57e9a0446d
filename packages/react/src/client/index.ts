/**
 * @module
 * `@gatehouse/react/client`: the client without React, for plain browser
 * code, other frameworks and server-side scripts; and what a plugin package
 * needs to write its client half (the contract types and core's shapes).
 */
export { createAuthClient, DEFAULT_REFETCH_THROTTLE_MS } from './create-client.js'
export type { ClientFromPlugins, ClientFromServer, ClientOptions, ServerClientArgs, WithClientHalves } from './create-client.js'
export { ClientErrors } from './errors.js'
// For plugins' client halves: one revived-Date rule and one user shape for every package.
export { isoDate, userShape } from './shapes.js'
export type { AuthClientError, CallResult, ClientErrorCode, ErrorIssue } from './errors.js'
export type {
  AuthClient,
  ClientHalfName,
  ClientHalvesImported,
  ClientPluginsFor,
  ClientStores,
  ClientTypes,
  EndpointOutput,
  ErrorCodes,
  NoClientHalvesNeeded,
  PassClientHalves,
  PluginTypes,
  RouteCall,
  RouteMethods,
  ServerLike,
  ServerTypes,
  SessionData,
  StoreData,
} from './infer.js'
export type { ActionContext, ActionTable, AnyClientPlugin, ClientPlugin, ClientPluginRegistry, SessionState, StoreDefinition, StoreTable } from './plugin.js'
export type { QuerySnapshot, QueryStore } from './query-store.js'
export type { ClientRoute, RouteGroup, RouteTable } from './route.js'
export type { BearerStorage, CallOptions, TransportOptions } from './transport.js'
