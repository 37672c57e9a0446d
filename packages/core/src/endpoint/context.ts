/**
 * @module
 * The explicit context handlers are pure functions of. `AuthContext` is built
 * once per `createAuth` (database, clock, randomness, secrets, logger,
 * options); `EndpointContext` adds one call's input, cookies and response
 * headers; `HookContext` is what request hooks see. They are defined in
 * `types/contract.ts`, beside the options and plugin types they refer to.
 */
export type { AuthContext, EndpointContext, HookContext } from '../types/contract.js'
