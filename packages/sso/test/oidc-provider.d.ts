/**
 * @module
 * The part of node-oidc-provider 9 (`oidc-provider`) that test/oidc-fixtures.ts
 * drives, and core's test/social-fixtures.ts (whose Browser the flow tests
 * borrow) as this package's compiler sees it. The package ships no types and
 * @types/oidc-provider is not a dependency of this package; these shapes
 * follow its lib/provider.js and its documented configuration.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface ClientMetadata {
    readonly client_id: string
    readonly client_secret?: string
    readonly redirect_uris: readonly string[]
    readonly grant_types?: readonly string[]
    readonly response_types?: readonly string[]
    readonly token_endpoint_auth_method?: string
  }

  export interface Account {
    readonly accountId: string
    claims(): Promise<Record<string, unknown>>
  }

  export interface Interaction {
    readonly uid: string
    readonly params: Readonly<Record<string, unknown>>
  }

  export interface Configuration {
    readonly clients?: readonly ClientMetadata[]
    readonly jwks?: { readonly keys: readonly Record<string, unknown>[] }
    readonly cookies?: { readonly keys: readonly string[] }
    readonly ttl?: Readonly<Record<string, number>>
    readonly claims?: Readonly<Record<string, readonly string[]>>
    readonly scopes?: readonly string[]
    readonly features?: Readonly<Record<string, { readonly enabled: boolean }>>
    readonly pkce?: { readonly required?: () => boolean }
    readonly interactions?: { readonly url: (ctx: unknown, interaction: Interaction) => string }
    readonly findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>
    readonly issueRefreshToken?: (ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => Promise<boolean>
  }

  export interface Grant {
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    readonly Grant: new (properties: { accountId: string; clientId: string }) => Grant
    on(event: string, listener: (...args: unknown[]) => void): this
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Readonly<Record<string, unknown>>,
      options?: { readonly mergeWithLastSubmission?: boolean },
    ): Promise<void>
  }
}
