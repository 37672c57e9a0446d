/**
 * @module
 * The part of passport-openidconnect 0.1 that test/relying-parties.test.ts
 * drives. The package ships no types, and @types/passport-openidconnect
 * would bring Express's along for a test that uses none of it; these shapes
 * follow the package's lib/strategy.js.
 */
declare module 'passport-openidconnect' {
  export interface StrategyOptions {
    readonly issuer: string
    readonly authorizationURL: string
    readonly tokenURL: string
    readonly userInfoURL?: string
    readonly clientID: string
    readonly clientSecret?: string
    readonly callbackURL?: string
    /** Added after `openid`, which the strategy always asks for. */
    readonly scope?: string | readonly string[]
    readonly prompt?: string
    /** Send a fresh nonce and check it in the ID Token. */
    readonly nonce?: boolean
  }

  /** The user's claims as passport profiles them; `_json` is the userinfo answer. */
  export interface Profile {
    readonly id: string
    readonly displayName?: string
    readonly emails?: readonly { readonly value: string }[]
    readonly _json?: Record<string, unknown>
  }

  export type VerifyCallback = (error: Error | null, user?: unknown, info?: unknown) => void

  /**
   * The nine-argument verify function: with this arity the strategy loads
   * userinfo and hands over every token.
   */
  export type VerifyFunction = (
    issuer: string,
    userinfoProfile: Profile | undefined,
    idTokenProfile: Profile,
    context: object,
    idToken: string,
    accessToken: string,
    refreshToken: string | undefined,
    params: Record<string, unknown>,
    done: VerifyCallback,
  ) => void

  /** What the strategy reads of a request: the callback's query and the relying party's session. */
  export interface StrategyRequest {
    readonly query: Record<string, string>
    readonly session: Record<string, unknown>
    readonly headers: Record<string, string>
    readonly url: string
  }

  /** node-oauth's OAuth2 client, which the strategy exposes as `_oauth2` for subclasses. */
  export interface OAuth2Client {
    getOAuthAccessToken(
      codeOrRefreshToken: string,
      params: Record<string, string>,
      callback: (
        error: { readonly statusCode?: number; readonly data?: string } | null,
        accessToken: string | undefined,
        refreshToken: string | undefined,
        results: Record<string, unknown>,
      ) => void,
    ): void
  }

  export class Strategy {
    constructor(options: StrategyOptions, verify: VerifyFunction)
    readonly name: string
    readonly _oauth2: OAuth2Client
    authenticate(req: StrategyRequest, options?: Record<string, unknown>): void
    /** The actions Passport's middleware supplies; a caller without Passport sets them itself. */
    redirect(url: string, status?: number): void
    success(user: unknown, info?: unknown): void
    fail(challenge?: unknown, status?: number): void
    error(error: Error): void
    pass(): void
  }
}
