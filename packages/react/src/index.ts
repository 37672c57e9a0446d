/**
 * @module
 * `@gatehouse/react`: the typed client with React hooks. The client without
 * React, and the plugin contract, are also exported from
 * `@gatehouse/react/client`.
 */
export { createAuthClient } from './react/create-auth-client.js'
export type { InitialStateProps, ReactClient, StoreHooks } from './react/create-auth-client.js'
export { useStore } from './react/use-store.js'
export type { HookOptions, QueryState } from './react/use-store.js'
export { ClientErrors } from './client/errors.js'
export type { AuthClientError, CallResult, ClientErrorCode, ErrorIssue } from './client/errors.js'
export { DEFAULT_REFETCH_THROTTLE_MS } from './client/create-client.js'
export type { ClientFromPlugins, ClientFromServer, ClientOptions, ServerClientArgs, WithClientHalves } from './client/create-client.js'
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
} from './client/infer.js'
export type {
  ActionContext,
  ActionTable,
  AnyClientPlugin,
  ClientPlugin,
  ClientPluginRegistry,
  SessionState,
  StoreDefinition,
  StoreTable,
} from './client/plugin.js'
export type { QuerySnapshot, QueryStore } from './client/query-store.js'
export type { ClientRoute, RouteGroup, RouteTable } from './client/route.js'
export type { BearerStorage, CallOptions, TransportOptions } from './client/transport.js'
