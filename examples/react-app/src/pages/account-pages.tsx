/**
 * The signed-in user's own account: profile (name, email, password,
 * linked accounts, connected apps, deletion) and the list of sessions with revocation.
 */
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client, type SessionData } from '../auth-client.js'
import { navigate } from '../router.js'
import { ConnectedApps } from './oidc-pages.js'
import { LinkedAccounts } from './social.js'

export function ProfilePage({ session }: { session: SessionData }) {
  const { user } = session
  const rename = useAction()
  const email = useAction()
  const password = useAction()
  const remove = useAction()
  return (
    <section>
      <h1>Profile</h1>
      <form
        aria-labelledby="profile-name"
        onSubmit={(event) => {
          const { name = '' } = fields(event)
          void rename.run(() => client.updateUser({ name }), undefined, 'Name saved.')
        }}
      >
        <h2 id="profile-name">Name</h2>
        <label>
          Name
          <input name="name" defaultValue={user.name} required />
        </label>
        <Submit action={rename}>Save name</Submit>
        <Status action={rename} />
      </form>

      <form
        aria-labelledby="profile-email"
        onSubmit={(event) => {
          const { newEmail = '' } = fields(event)
          void email.run(
            () => client.changeEmail({ newEmail, callbackURL: '/profile' }),
            undefined,
            user.emailVerified ? `We sent a confirmation link to ${user.email}. Open it in this browser, signed in.` : 'Email changed. Check the new inbox to verify it.',
          )
        }}
      >
        <h2 id="profile-email">Email</h2>
        <p>
          Current: <strong>{user.email}</strong> {user.emailVerified ? '(verified)' : '(not verified)'}
        </p>
        <label>
          New email
          <input name="newEmail" type="email" autoComplete="email" required />
        </label>
        <Submit action={email}>Change email</Submit>
        <Status action={email} />
      </form>

      <form
        aria-labelledby="profile-password"
        onSubmit={(event) => {
          const form = event.currentTarget
          const { currentPassword = '', newPassword = '', revoke } = fields(event)
          void password.run(
            () => client.changePassword({ currentPassword, newPassword, revokeOtherSessions: revoke === 'on' }),
            () => form.reset(),
            'Password changed.',
          )
        }}
      >
        <h2 id="profile-password">Password</h2>
        <label>
          Current password
          <input name="currentPassword" type="password" autoComplete="current-password" required />
        </label>
        <label>
          New password
          <input name="newPassword" type="password" autoComplete="new-password" minLength={8} maxLength={128} required />
        </label>
        <label className="inline">
          <input name="revoke" type="checkbox" /> Sign out my other sessions
        </label>
        <Submit action={password}>Change password</Submit>
        <Status action={password} />
      </form>

      <LinkedAccounts />

      <ConnectedApps />

      <form
        aria-labelledby="profile-delete"
        onSubmit={(event) => {
          const { password: current = '' } = fields(event)
          void remove.run(
            () => (current ? client.deleteUser({ password: current }) : client.deleteUser({ callbackURL: '/' })),
            () => {
              if (current) navigate('/')
            },
            current ? undefined : `We sent a link to ${user.email} to confirm the deletion. Open it in this browser, signed in.`,
          )
        }}
      >
        <h2 id="profile-delete">Delete account</h2>
        <p>With your password the account is deleted at once; without it we mail you a confirmation link.</p>
        <label>
          Password (optional)
          <input name="password" type="password" autoComplete="current-password" />
        </label>
        <Submit action={remove}>Delete my account</Submit>
        <Status action={remove} />
      </form>
    </section>
  )
}

type SessionList = NonNullable<Awaited<ReturnType<typeof client.listSessions>>['data']>

export function SessionsPage({ session }: { session: SessionData }) {
  const [sessions, setSessions] = useState<SessionList | null>(null)
  const load = useAction()
  const revoke = useAction()
  const refresh = () => load.run(() => client.listSessions(), (result) => setSessions(result.data ?? null))
  useEffect(() => {
    void refresh()
    // Loaded once when the page opens; the buttons reload it after a change.
  }, [])
  return (
    <section>
      <h1>Sessions</h1>
      <Status action={load} />
      <Status action={revoke} />
      <ul className="cards">
        {(sessions ?? []).map((item) => {
          const current = item.id === session.session.id
          return (
            <li key={item.id}>
              <p>
                <strong>{item.userAgent ?? 'Unknown device'}</strong> {current ? '(this browser)' : null}
              </p>
              <p className="muted">
                {item.ipAddress ?? 'unknown address'} · since {item.createdAt.toLocaleString()} · until {item.expiresAt.toLocaleString()}
              </p>
              {current ? null : (
                <button type="button" onClick={() => void revoke.run(() => client.revokeSession({ token: item.token }), refresh)}>
                  Revoke
                </button>
              )}
            </li>
          )
        })}
      </ul>
      <button type="button" onClick={() => void revoke.run(() => client.revokeOtherSessions(), refresh, 'Other sessions signed out.')}>
        Sign out everywhere else
      </button>
    </section>
  )
}
