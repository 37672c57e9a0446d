/**
 * @module
 * What `createAuth` accepts, under the name the rest of core imports. The
 * definitions live in `types/`: `GatehouseOptions` in `types/contract.ts`
 * (it holds plugins, which hold contexts that hold the options) and the
 * option groups in the leaf `types/options.ts`.
 */
export type { GatehouseOptions } from './types/contract.js'
export type {
  AccountOptions,
  AdvancedOptions,
  EmailAndPasswordOptions,
  EmailVerificationOptions,
  MailContext,
  ModelNaming,
  NamingOptions,
  SessionOptions,
  UserOptions,
} from './types/options.js'
