/**
 * Fixtures for the delete-user tests: an auth with delete-user on (and, on
 * request, the deletion mail captured), row reads and request shorthands.
 */
import type { UserOptions } from '../src/options.js'
import { accountAuth, authed } from './accounts.js'

export interface DeleteMail {
  readonly to: string
  readonly url: string
  readonly token: string
}

type DeleteUserOptions = NonNullable<UserOptions['deleteUser']>
type Options = Parameters<typeof accountAuth>[0] & object

/** An auth with delete-user on; `mail: true` configures the deletion mail and captures it. */
export function deleteAuth(deleteUser: DeleteUserOptions & { mail?: boolean } = {}, options: Options = {}) {
  const deleteMails: DeleteMail[] = []
  const { mail, ...rest } = deleteUser
  const auth = accountAuth({
    ...options,
    user: {
      deleteUser: {
        enabled: true,
        ...(mail
          ? {
              sendDeleteAccountVerification: ({ user, url, token }: { user: { email: string }; url: string; token: string }) => {
                deleteMails.push({ to: user.email, url, token })
              },
            }
          : {}),
        ...rest,
      },
    },
  })
  return Object.assign(auth, { deleteMails })
}

export type Auth = ReturnType<typeof accountAuth>

export async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

export async function postDelete(auth: Auth, cookie: string, json?: unknown) {
  const init = json === undefined ? { method: 'POST' } : { method: 'POST', json }
  const response = await auth.handler(authed('/api/auth/delete-user', cookie, init))
  return { response, body: await response.clone().json() }
}

/** True when the response clears the session cookie (Max-Age=0). */
export function clearsSession(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => /^gatehouse\.session_token=;/.test(line) && /Max-Age=0/i.test(line))
}
