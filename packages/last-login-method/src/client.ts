/**
 * @module
 * `@gatehouse/last-login-method/client`: the plugin's client half for
 * `@gatehouse/react` (docs/last-login-method.md#client). No routes: three
 * actions that read the method cookie from `document.cookie`, under
 * `client.lastLoginMethod` (a client's actions live in groups):
 * `getLastUsedLoginMethod()`, `isLastUsedLoginMethod(method)` and
 * `clearLastUsedLoginMethod()`, the leading library's names. Outside a
 * browser there is no cookie: null and false.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin } from '@gatehouse/react'
import { DEFAULT_LAST_LOGIN_METHOD_COOKIE, LOGIN_METHOD } from './defaults.js'

export interface LastLoginMethodClientOptions {
  /** The cookie's name, as given to the server plugin; `better-auth.last_used_login_method` by default. */
  readonly cookieName?: string | undefined
  /** The Domain the server's cookies carry (`advanced.crossSubDomainCookies.domain`), for the clear to reach that cookie. */
  readonly domain?: string | undefined
}

// A type, not an interface: an action table is an index type, which only type literals satisfy.
export type LastLoginMethodActions = {
  readonly lastLoginMethod: {
    /** The method this browser last signed in with (`email`, `github`, `passkey`, ...), or null. */
    readonly getLastUsedLoginMethod: () => string | null
    /** Whether `method` is the one this browser last signed in with. */
    readonly isLastUsedLoginMethod: (method: string) => boolean
    /** Forgets it (a "not you?" link): the cookie is deleted. */
    readonly clearLastUsedLoginMethod: () => void
  }
}

export type LastLoginMethodClient = ClientPlugin<'last-login-method', {}, {}, {}, never, LastLoginMethodActions>

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  for (const pair of document.cookie.split(';')) {
    const equals = pair.indexOf('=')
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue
    const value = pair.slice(equals + 1).trim()
    // The server's rule: anything else under this name (planted by a sibling site, say) is no method.
    return LOGIN_METHOD.test(value) ? value : null
  }
  return null
}

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { lastLoginMethodClient } from '@gatehouse/last-login-method/client'
 *
 * const client = createAuthClient({ plugins: [lastLoginMethodClient()] })
 * const last = client.lastLoginMethod.getLastUsedLoginMethod() // 'github' | null
 * if (client.lastLoginMethod.isLastUsedLoginMethod('passkey')) showPasskeyFirst()
 */
export function lastLoginMethodClient(options: LastLoginMethodClientOptions = {}): LastLoginMethodClient {
  const name = options.cookieName ?? DEFAULT_LAST_LOGIN_METHOD_COOKIE
  return {
    id: 'last-login-method',
    routes: {},
    actions: () => ({
      lastLoginMethod: {
        getLastUsedLoginMethod: () => readCookie(name),
        isLastUsedLoginMethod: (method: string) => readCookie(name) === method,
        clearLastUsedLoginMethod: () => {
          if (typeof document === 'undefined') return
          const domain = options.domain ? `; Domain=${options.domain}` : ''
          document.cookie = `${name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/${domain}`
        },
      },
    }),
  }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` type this client half for a server with `lastLoginMethod()`. The server
  // plugin names no `clientHalf`: the cookie works without this half, so leaving it out is no compile error; once this
  // module is imported, a client typed from the server lists it, in the server's order, like any other half.
  interface ClientPluginRegistry {
    'last-login-method': LastLoginMethodClient
  }
}
