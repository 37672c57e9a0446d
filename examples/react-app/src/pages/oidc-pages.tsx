/**
 * The pages of the OpenID Provider (docs/oidc-provider.md): `/login`, where an
 * authorization that found no session waits while the user signs in, and
 * `/consent`, where the user allows or denies a client the scopes it asked
 * for, as the server holds the request (never as the page's URL says). Both end by leaving the app: back to the server's authorize endpoint,
 * or on to the client's redirect URI with a code (or `access_denied`).
 * `ConnectedApps`, on the profile, lists the applications holding a grant of
 * the user and ends one (docs/oidc-provider.md#connected-apps).
 */
import type { ConnectedApp, ConsentRequest } from '@gatehouse/oidc-provider/client'
import { useEffect, useState } from 'react'
import { isTwoFactorRedirect } from '@gatehouse/two-factor/client'
import { fields, Status, Submit, useAction } from '../action.js'
import { client, type SessionData } from '../auth-client.js'
import { Link, navigate } from '../router.js'

const AUTHORIZE = '/api/auth/oauth2/authorize'

/** The scopes a client may ask for, in words a user can judge. */
const SCOPE_WORDS: Readonly<Record<string, string>> = {
  openid: 'Know who you are on this site',
  profile: 'See your name and picture',
  email: 'See your email address and whether it is verified',
  offline_access: 'Stay connected when you are not using it',
}

/** The authorization request the server sent along, when the query is one (it has the client and the response type). */
function authorizationQuery(query: URLSearchParams): URLSearchParams | null {
  return query.get('client_id') && query.get('response_type') ? query : null
}

/** Leaves the app for a URL the server answered with; a full navigation, since it goes to the API or another site. */
function leaveFor(url: string): void {
  window.location.assign(url)
}

/**
 * After sign-in: the server's continuation when it sent one (it kept the
 * request in a signed cookie), else the authorize endpoint again with the
 * original request, which now finds the session.
 */
function resume(query: URLSearchParams, serverURL: string | undefined): void {
  if (serverURL) return leaveFor(serverURL)
  const request = authorizationQuery(query)
  leaveFor(request ? `${AUTHORIZE}?${request}` : '/')
}

export function LoginPage({ session, query }: { session: SessionData | null; query: URLSearchParams }) {
  const action = useAction()
  const request = authorizationQuery(query)
  // prompt=login asks for a fresh sign-in: continuing with the current session would loop back here.
  const mustSignIn = (query.get('prompt') ?? '').split(' ').includes('login')
  return (
    <section>
      <h1>Sign in</h1>
      {request ? <p>An application asked to sign you in with your account here. Sign in to continue.</p> : null}
      {session && request && !mustSignIn ? (
        <p>
          <button type="button" onClick={() => resume(query, undefined)}>
            Continue as {session.user.email}
          </button>
        </p>
      ) : null}
      <form
        onSubmit={(event) => {
          const { email = '', password = '' } = fields(event)
          void action.run(
            () => client.signIn.email({ email, password, rememberMe: true }),
            // Two-factor on (docs/two-factor.md#signing-in): the code page first, then back here with a session.
            (result) => (isTwoFactorRedirect(result.data) ? navigate(`/two-factor?next=${encodeURIComponent(`/login?${query}`)}`) : resume(query, result.data?.url)),
          )
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="email" defaultValue={query.get('login_hint') ?? ''} required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <Submit action={action}>Sign in</Submit>
        <Status action={action} />
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
        {request ? (
          <>
            {' · '}
            {/* Back here after sign-up, signed in: "Continue as" resumes the authorization. */}
            <Link to={`/sign-up?next=${encodeURIComponent(`/login?${request}`)}`}>Create an account</Link>
          </>
        ) : null}
      </p>
    </section>
  )
}

export function ConsentPage({ session, query }: { session: SessionData | null; query: URLSearchParams }) {
  // Only the id: the client and the scopes shown come from the server (GET /oauth2/consent), never from this URL,
  // which any site can write (docs/oidc-provider.md#consent).
  const consentId = query.get('consent_id')
  if (!session) {
    return (
      <section>
        <h1>Sign in first</h1>
        <p>Your sign-in has ended. Go back to the application and start again.</p>
      </section>
    )
  }
  if (!consentId) {
    return (
      <section>
        <h1>Nothing to approve</h1>
        <p>This page is opened by an application asking for access to your account.</p>
      </section>
    )
  }
  return <ConsentForm key={consentId} consentId={consentId} email={session.user.email} />
}

/** The request as the server holds it, loaded once per consent_id (loading it marks it as the one shown). */
function useConsentRequest(consentId: string) {
  const [state, setState] = useState<{ request: ConsentRequest | null; error: string | null; pending: boolean }>({ request: null, error: null, pending: true })
  useEffect(() => {
    let live = true
    void client.oauth2.consentRequest({ consent_id: consentId }).then(({ data, error }) => {
      if (!live) return
      // NO_PENDING_CONSENT: answered already (another tab), past its ten minutes, or not this user's.
      const message =
        error?.code === 'NO_PENDING_CONSENT' ? 'This request has expired. Go back to the application and start again.' : error?.code === 'CLIENT_DISABLED' ? 'This application is not known here.' : (error?.message ?? null)
      setState({ request: data ?? null, error: data ? null : (message ?? 'This request could not be loaded.'), pending: false })
    })
    return () => {
      live = false
    }
  }, [consentId])
  return state
}

function ConsentForm({ consentId, email }: { consentId: string; email: string }) {
  const { request, error, pending } = useConsentRequest(consentId)
  const action = useAction()
  if (pending) return <p>Loading…</p>
  if (error || !request) {
    return (
      <p role="alert" className="error">
        {error}
      </p>
    )
  }
  const { client: app, scopes } = request
  const decide = (accept: boolean) =>
    void action.run(
      async () => {
        const result = await client.oauth2.consent({ accept, consentId })
        if (result.error?.code === 'NO_PENDING_CONSENT') {
          return { data: null, error: { ...result.error, message: 'This request has expired. Go back to the application and start again.' } }
        }
        return result
      },
      (result) => {
        if (result.data) leaveFor(result.data.redirectURI)
      },
    )
  const links = [
    { href: app.clientURI, label: 'Website' },
    { href: app.policyURI, label: 'Privacy policy' },
    { href: app.tosURI, label: 'Terms of service' },
  ].filter((link): link is { href: string; label: string } => link.href !== null)
  return (
    <section>
      <h1>
        {app.icon ? <img src={app.icon} alt="" width={48} height={48} /> : null} {app.name} wants to access your account
      </h1>
      {app.verified ? null : (
        <p className="warning">
          <strong>Unverified application.</strong> Anyone can register an application here under any name: allow it only if you
          started this sign-in yourself and trust where it came from.
        </p>
      )}
      <p>
        Signed in as <strong>{email}</strong>. {app.name} asks to:
      </p>
      <ul>
        {scopes.map((scope) => (
          <li key={scope}>{SCOPE_WORDS[scope] ?? `Use “${scope}”`}</li>
        ))}
      </ul>
      {links.length > 0 ? (
        <p className="muted">
          {links.map((link, index) => (
            <span key={link.label}>
              {index > 0 ? ' · ' : ''}
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </span>
          ))}
        </p>
      ) : null}
      <p className="muted">Allowing sends you back to {app.name}; denying tells it you said no.</p>
      <p>
        <button type="button" disabled={action.pending} onClick={() => decide(true)}>
          Allow
        </button>{' '}
        <button type="button" disabled={action.pending} onClick={() => decide(false)}>
          Deny
        </button>
      </p>
      <Status action={action} />
    </section>
  )
}

/** The profile's "Connected apps": every client holding a grant of the user, each with a Revoke button. */
export function ConnectedApps() {
  const [apps, setApps] = useState<readonly ConnectedApp[] | null>(null)
  const load = useAction()
  const revoke = useAction()
  const refresh = () => load.run(() => client.oauth2.grants(), (result) => setApps(result.data ?? null))
  useEffect(() => {
    void refresh()
  }, [])
  return (
    <section aria-labelledby="profile-apps">
      <h2 id="profile-apps">Connected apps</h2>
      <Status action={load} />
      {apps && apps.length === 0 ? <p className="muted">No application has access to your account.</p> : null}
      <ul className="cards">
        {(apps ?? []).map((app) => (
          <li key={app.clientId}>
            {app.icon ? <img src={app.icon} alt="" width={24} height={24} /> : null} <strong>{app.name}</strong>{' '}
            <span className="muted">
              {app.scopes.map((scope) => SCOPE_WORDS[scope] ?? scope).join('; ')} · since {app.grantedAt.toLocaleDateString()}
              {app.lastUsedAt ? ` · last used ${app.lastUsedAt.toLocaleDateString()}` : ''}
            </span>{' '}
            <button
              type="button"
              disabled={revoke.pending}
              aria-label={`Revoke ${app.name}`}
              onClick={() => void revoke.run(() => client.oauth2.revokeGrant({ clientId: app.clientId }), refresh, `${app.name} no longer has access.`)}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <Status action={revoke} />
    </section>
  )
}
