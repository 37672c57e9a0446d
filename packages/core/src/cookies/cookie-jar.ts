/**
 * @module
 * One call's cookies: reads the request's Cookie header once, verifies signed
 * values with every key of the rotation, and collects the Set-Cookie lines of
 * the response. Cookies are named by their short name (`session_token`); the
 * policy (cookies/cookies.ts) adds the prefix, `__Host-` or `__Secure-` and attributes.
 * Each cookie name has its own signing key (HKDF purpose `cookie:<name>`), so
 * a value signed for one cookie is rejected when replayed in another.
 */
import { sharedKey, sharedKeys, type Secrets } from '../crypto/keys.js'
import { parseCookieHeader, type CookieAttributes } from './cookie-header.js'
import { signCookieValue, verifySignedCookieValue, type CookieConfig } from './cookies.js'

export interface CookieNames {
  readonly sessionToken: string
  readonly sessionData: string
  readonly dontRemember: string
}

export interface CookieLifetime {
  /** Seconds; omit both for a browser-session cookie (remember-me off). */
  readonly maxAge?: number
  readonly expires?: Date
  /** Attributes over the policy's defaults for this one cookie. */
  readonly attributes?: CookieAttributes
}

export interface CookieJar {
  /** Full names of core's cookies, e.g. `__Host-gatehouse.session_token`. */
  readonly names: CookieNames
  /** The full name for a short one. */
  name(short: string): string
  get(short: string): string | undefined
  /** The value of a signed cookie, or null when absent, unsigned or tampered with. */
  getSigned(short: string): string | null
  set(short: string, value: string, lifetime?: CookieLifetime): void
  setSigned(short: string, value: string, lifetime?: CookieLifetime): void
  /** Clears a cookie: empty value, Max-Age 0. */
  delete(short: string): void
  /** The Set-Cookie lines to send, in order. */
  readonly outgoing: readonly string[]
}

export function cookieNames(config: CookieConfig): CookieNames {
  return {
    sessionToken: config.sessionToken.name,
    sessionData: config.sessionData.name,
    dontRemember: config.dontRemember.name,
  }
}

export function createCookieJar(args: { header: string | null; config: CookieConfig; secrets: Secrets }): CookieJar {
  const { config, secrets } = args
  let incoming: Map<string, string> | undefined
  const read = (short: string) => (incoming ??= parseCookieHeader(args.header)).get(config.cookie(short).name)
  const outgoing: string[] = []
  const write = (short: string, value: string, lifetime: CookieLifetime = {}) => {
    const { attributes, ...span } = lifetime
    outgoing.push(config.cookie(short, attributes).serialize(value, span))
  }
  const purpose = (short: string) => `cookie:${short}`
  return {
    names: cookieNames(config),
    name: (short) => config.cookie(short).name,
    get: read,
    getSigned: (short) => verifySignedCookieValue(read(short), sharedKeys(secrets, purpose(short))),
    set: write,
    setSigned: (short, value, lifetime) => write(short, signCookieValue(value, sharedKey(secrets, purpose(short))), lifetime),
    delete: (short) => {
      outgoing.push(config.cookie(short).clear())
    },
    outgoing,
  }
}
