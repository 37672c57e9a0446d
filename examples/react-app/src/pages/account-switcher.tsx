/**
 * The header's account switcher (docs/multi-session.md), shown only when the
 * server runs the multi-session plugin (MULTI_SESSION=1): without it the list
 * route answers 404 and the header keeps its one account. It lists the
 * accounts signed in on this browser, switches to one (`setActive`), signs one
 * out (`revoke`) while the others stay, and adds another: the sign-in page at
 * /sign-in?add=1, reached without signing out.
 */
import { useEffect, useState } from 'react'
import { Status, useAction } from '../action.js'
import { multiSession, type SessionData } from '../auth-client.js'
import { Link, navigate } from '../router.js'

/** What the switcher shows of each account the browser holds (`list-device-sessions`, docs/multi-session.md#routes). */
interface DeviceSession {
  /** `token` is the session's public identifier, the one set-active and revoke take, never its secret. */
  readonly session: { readonly token: string }
  readonly user: { readonly id: string; readonly name: string; readonly email: string }
}

/** `off`: the server has no multi-session; null: not known yet. */
type Accounts = readonly DeviceSession[] | 'off' | null

/**
 * @example
 * <AccountSwitcher session={session} />
 */
export function AccountSwitcher({ session }: { session: SessionData }) {
  const [accounts, setAccounts] = useState<Accounts>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  // Bumped to read the list again when it changed without the active session changing (another account signed out).
  const [version, setVersion] = useState(0)
  const change = useAction()

  useEffect(() => {
    let live = true
    void multiSession.listDeviceSessions().then((result) => {
      if (!live) return
      if (!result.error) {
        setAccounts(result.data)
        setLoadError(null)
      } else if (result.error.status === 404) {
        setAccounts('off')
      } else {
        setLoadError(result.error.message)
      }
    })
    return () => {
      live = false
    }
    // The active session decides the list: a switch, a sign-in or a sign-out elsewhere in the app reads it again.
  }, [session.session.id, version])

  if (accounts === 'off' || (accounts === null && loadError === null)) return null
  return (
    <div
      className="account-switcher"
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false)
      }}
    >
      <button type="button" aria-expanded={open} aria-controls="account-switcher" onClick={() => setOpen(!open)}>
        Accounts{accounts && accounts.length > 1 ? ` (${accounts.length})` : ''}
      </button>
      {open ? (
        <div id="account-switcher" className="account-panel">
          {loadError ? (
            <p role="alert" className="error">
              {loadError}
            </p>
          ) : null}
          <ul aria-label="Accounts on this browser">
            {(accounts ?? []).map(({ session: held, user }) => {
              const active = user.id === session.user.id
              return (
                <li key={held.token} aria-current={active ? 'true' : undefined}>
                  <span>
                    <strong>{user.name || user.email}</strong> <span className="muted">{user.email}</span>
                    {active ? ' (current)' : null}
                  </span>
                  <span className="actions">
                    {active ? null : (
                      <button
                        type="button"
                        disabled={change.pending}
                        aria-label={`Switch to ${user.email}`}
                        onClick={() =>
                          // `setActive` sets this account's session cookie; the client then reads the session again.
                          void change.run(
                            () => multiSession.setActive({ sessionToken: held.token }),
                            () => {
                              setOpen(false)
                              navigate('/')
                            },
                          )
                        }
                      >
                        Switch
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={change.pending}
                      aria-label={`Sign out ${user.email}`}
                      onClick={() =>
                        // The other accounts stay; signing out the active one makes the next one active (or none).
                        void change.run(
                          () => multiSession.revoke({ sessionToken: held.token }),
                          () => {
                            setVersion((count) => count + 1)
                            if (active) navigate('/')
                          },
                          `${user.email} is signed out.`,
                        )
                      }
                    >
                      Sign out
                    </button>
                  </span>
                </li>
              )
            })}
          </ul>
          <Link to="/sign-in?add=1" onClick={() => setOpen(false)}>
            Add another account
          </Link>
          <Status action={change} />
        </div>
      ) : null}
    </div>
  )
}
