/**
 * The shell: header with the account menu (and, with multi-session on, the
 * account switcher), the banner for an unverified email, and the page for the current path. Pages that need a session get
 * it from `useSession()`, which every component shares: one request.
 */
import type { ReactNode } from 'react'
import { Status, useAction } from './action.js'
import { client, type SessionData } from './auth-client.js'
import { ProfilePage, SessionsPage } from './pages/account-pages.js'
import { AccountSwitcher } from './pages/account-switcher.js'
import { AdminPage, ImpersonationBanner, useIsAdmin } from './pages/admin-pages.js'
import { BillingActions } from './pages/billing-pages.js'
import { ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage } from './pages/auth-pages.js'
import { ConsentPage, LoginPage } from './pages/oidc-pages.js'
import { AcceptInvitationPage, OrganizationsPage } from './pages/organization-pages.js'
import { SecurityPage } from './pages/security-pages.js'
import { SOCIAL_ERRORS } from './pages/social.js'
import { SSO_ERRORS, SsoSignInPage } from './pages/sso-pages.js'
import { TwoFactorPage } from './pages/two-factor-pages.js'
import { Link, navigate, useLocation } from './router.js'

/** Error codes the server appends to redirects (docs/accounts.md#email-verification), in words. */
const REDIRECT_ERRORS: Readonly<Record<string, string>> = {
  invalid_token: 'That link is invalid or has expired.',
  token_expired: 'That link has expired. Ask for a new one.',
  INVALID_TOKEN: 'That link is invalid or has expired.',
  user_not_found: 'No account matches that link.',
}

export function App() {
  const { data: session, isPending } = client.useSession()
  const { path, query } = useLocation()
  const redirectError = query.get('error')
  return (
    <>
      <header>
        <Link to="/" className="brand">
          Gatehouse example
        </Link>
        <nav aria-label="Main">{session ? <SignedInNav session={session} /> : isPending ? null : <SignedOutNav />}</nav>
      </header>
      {session ? <ImpersonationBanner session={session} /> : null}
      {session && !session.user.emailVerified && !isPlaceholderAddress(session.user.email) ? <VerifyBanner email={session.user.email} /> : null}
      {session && session.user.isAnonymous === true ? <GuestBanner /> : null}
      <main>
        {redirectError && path !== '/reset-password' ? (
          <p role="alert" className="error">
            {REDIRECT_ERRORS[redirectError] ?? SOCIAL_ERRORS[redirectError] ?? SSO_ERRORS[redirectError] ?? `Something went wrong (${redirectError}).`}
          </p>
        ) : null}
        {isPending ? <p>Loading…</p> : <Page path={path} query={query} session={session ?? null} />}
      </main>
    </>
  )
}

function Page({ path, query, session }: { path: string; query: URLSearchParams; session: SessionData | null }): ReactNode {
  const invitation = /^\/accept-invitation\/([^/]+)$/.exec(path)
  if (invitation?.[1]) return <AcceptInvitationPage invitationId={decodeURIComponent(invitation[1])} session={session} />
  switch (path) {
    // The OpenID Provider's pages (docs/oidc-provider.md): signing in for an application, and granting it access.
    case '/login':
      return <LoginPage session={session} query={query} />
    case '/consent':
      return <ConsentPage session={session} query={query} />
    case '/sign-up':
      return <SignUpPage />
    case '/sign-in':
      return <SignInPage />
    // Single sign-on through the organization's identity provider (docs/sso.md#signing-in).
    case '/sso':
      return <SsoSignInPage />
    case '/forgot-password':
      return <ForgotPasswordPage />
    case '/reset-password':
      return <ResetPasswordPage />
    // The second step of a sign-in with two-factor on (docs/two-factor.md#signing-in): no session yet.
    case '/two-factor':
      return <TwoFactorPage />
  }
  if (!session) return path === '/' ? <Welcome /> : <SignInPage />
  switch (path) {
    case '/':
      return <Home session={session} />
    case '/profile':
      return <ProfilePage session={session} />
    case '/sessions':
      return <SessionsPage session={session} />
    case '/security':
      return <SecurityPage session={session} />
    case '/organizations':
      return <OrganizationsPage session={session} />
    case '/admin':
      return <AdminPage session={session} />
    default:
      return <h1>Not found</h1>
  }
}

function SignedOutNav() {
  return (
    <>
      <Link to="/sign-in">Sign in</Link> <Link to="/sign-up">Sign up</Link>
    </>
  )
}

function SignedInNav({ session }: { session: SessionData }) {
  const action = useAction()
  const admin = useIsAdmin(session)
  return (
    <>
      {admin ? (
        <>
          <Link to="/admin">Users</Link>{' '}
        </>
      ) : null}
      <Link to="/organizations">Organizations</Link> <Link to="/sessions">Sessions</Link> <Link to="/security">Security</Link>{' '}
      <Link to="/profile">Profile</Link>{' '}
      <span className="muted">{session.user.email}</span> <AccountSwitcher session={session} />{' '}
      <button type="button" onClick={() => void action.run(() => client.signOut(), () => navigate('/'))}>
        Sign out
      </button>
    </>
  )
}

/**
 * An address under `.invalid` (RFC 2606: never delivered) stands in for one the user does not have: a number's
 * account signed up by a texted code (`<digits>@phone.invalid`, docs/phone-number.md) or a guest's. No link can reach it.
 */
function isPlaceholderAddress(email: string): boolean {
  return email.toLowerCase().endsWith('.invalid')
}

/** A guest (docs/anonymous.md): what it makes is kept when it signs up or signs in. */
function GuestBanner() {
  return (
    <div className="banner" role="status">
      You are browsing as a guest. <Link to="/sign-up">Create an account</Link> or <Link to="/sign-in">sign in</Link> to keep what you made here.
    </div>
  )
}

function VerifyBanner({ email }: { email: string }) {
  const action = useAction()
  return (
    <div className="banner" role="status">
      Please verify your email: we sent a link to <strong>{email}</strong>.{' '}
      <button type="button" onClick={() => void action.run(() => client.sendVerificationEmail({ email, callbackURL: '/' }), undefined, 'Sent again.')}>
        Send it again
      </button>
      <Status action={action} />
    </div>
  )
}

function Welcome() {
  return (
    <section>
      <h1>Welcome</h1>
      <p>This app shows what Gatehouse does: accounts, sessions and organizations.</p>
      <p>
        <Link to="/sign-up">Create an account</Link> or <Link to="/sign-in">sign in</Link>.
      </p>
    </section>
  )
}

/** What the user has paid for, from the server's billing mirror (kept in sync by webhooks; no call to the billing platform). */
function Billing() {
  const { data: state, isPending, refetch } = client.useCustomerState()
  if (isPending) return null
  const subscriptions = state?.activeSubscriptions ?? []
  const benefits = state?.grantedBenefits ?? []
  return (
    <section aria-labelledby="billing">
      <h2 id="billing">Billing</h2>
      {subscriptions.length === 0 ? (
        <p>No active subscription.</p>
      ) : (
        <ul>
          {subscriptions.map((subscription) => (
            <li key={subscription.id}>
              Subscription {subscription.productId}: {subscription.status}
              {subscription.currentPeriodEnd ? `, renews ${subscription.currentPeriodEnd.toLocaleDateString()}` : ''}
              {subscription.cancelAtPeriodEnd ? ' (ends then)' : ''}
            </li>
          ))}
        </ul>
      )}
      {benefits.length > 0 ? <p>Benefits: {benefits.map((benefit) => benefit.benefitType).join(', ')}</p> : null}
      <BillingActions subscribed={subscriptions.length > 0} />
      <button type="button" onClick={() => void refetch()}>
        Refresh billing
      </button>
    </section>
  )
}

function Home({ session }: { session: SessionData }) {
  const { data: organization } = client.useActiveOrganization()
  return (
    <section>
      <h1>Hello, {session.user.name || session.user.email}</h1>
      <p>
        Signed in as {session.user.email}
        {session.user.emailVerified ? ' (verified)' : ''}.
      </p>
      <p>{organization ? <>Active organization: {organization.name}.</> : <>No active organization.</>}</p>
      <Billing />
      <ul>
        <li>
          <Link to="/organizations">Organizations, members and invitations</Link>
        </li>
        <li>
          <Link to="/sessions">Your sessions</Link>
        </li>
        <li>
          <Link to="/profile">Your profile</Link>
        </li>
      </ul>
    </section>
  )
}
