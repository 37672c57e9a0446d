/**
 * Signing up, in and out of the account: sign-up (with an optional username),
 * sign-in (password with an address or a username, passkey, mailed link,
 * code by mail or text message, single sign-on, social), forgot and reset
 * password. Each form calls one client function and shows the server's
 * message when it fails ("Invalid email or password", "User already exists").
 * The option this browser used last carries a "Last used" badge; with
 * multi-session on, /sign-in?add=1 adds an account to the ones signed in.
 */
import { useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { Link, navigate, useLocation } from '../router.js'
import { afterSignIn, EmailCodeSignIn, PhoneSignIn } from './code-sign-in.js'
import { LastUsed } from './last-used.js'
import { PasskeySignIn } from './passkeys.js'
import { SocialButtons } from './social.js'
import { UsernameField } from './username-field.js'

/** Where to go after signing in: a same-site path from ?next=, else home. */
function nextPath(query: URLSearchParams): string {
  const next = query.get('next') ?? '/'
  // Only paths on this site: "//evil.example" and "https://…" are not followed.
  return next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

export function SignUpPage() {
  const action = useAction()
  const { query } = useLocation()
  return (
    <section>
      <h1>Create an account</h1>
      <form
        onSubmit={(event) => {
          const { name = '', email = '', password = '', username = '' } = fields(event)
          void action.run(
            () => client.signUp.email({ name, email, password, callbackURL: '/', ...(username.trim() ? { username: username.trim() } : {}) }),
            () => navigate(nextPath(query)),
          )
        }}
      >
        <label>
          Name
          <input name="name" autoComplete="name" required />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <UsernameField />
        <label>
          Password
          <input name="password" type="password" autoComplete="new-password" minLength={8} maxLength={128} required />
        </label>
        <Submit action={action}>Sign up</Submit>
        <Status action={action} />
      </form>
      <SocialButtons callbackURL={nextPath(query)} errorCallbackURL="/sign-in" />
      <p>
        Already have an account? <Link to={`/sign-in${query.size ? `?${query}` : ''}`}>Sign in</Link>
      </p>
    </section>
  )
}

/**
 * "Continue as guest" (docs/anonymous.md): a guest user and session at once. Whatever the guest creates
 * (organizations, here) becomes the account's when they sign up or sign in later.
 */
function GuestSignIn({ next }: { next: string }) {
  const action = useAction()
  const { data: session } = client.useSession()
  if (session) return null
  return (
    <section aria-labelledby="guest-heading">
      <h2 id="guest-heading">Just looking?</h2>
      <div className="actions">
        <button type="button" disabled={action.pending} onClick={() => void action.run(() => client.signIn.anonymous(), () => navigate(next))}>
          Continue as guest
        </button>
        <LastUsed methods={['anonymous']} />
      </div>
      <Status action={action} />
    </section>
  )
}

export function SignInPage() {
  const action = useAction()
  const { query } = useLocation()
  const { data: session } = client.useSession()
  const next = nextPath(query)
  return (
    <section>
      <h1>Sign in</h1>
      {/* From the account switcher (docs/multi-session.md): the session stays, and the new account joins it. */}
      {session && query.get('add') === '1' ? (
        <p className="notice">
          You are signed in as {session.user.email}. Sign in to another account to add it: the Accounts menu switches between them.
        </p>
      ) : null}
      <form
        onSubmit={(event) => {
          const { identifier = '', password = '', remember } = fields(event)
          const rememberMe = remember === 'on'
          // Usernames hold no "@" (docs/username.md#options): without one, the field is a username.
          void action.run(
            () =>
              identifier.includes('@')
                ? client.signIn.email({ email: identifier, password, rememberMe })
                : client.signIn.username({ username: identifier, password, rememberMe }),
            // Two-factor on (docs/two-factor.md#signing-in): no session yet, the code page comes next.
            (result) => afterSignIn(result.data, next),
          )
        }}
      >
        <label>
          {/* Named by its two parts: "Email" stays a label of its own, so scripts that find the field by it still do. */}
          <span>
            <span id="sign-in-identifier-email">Email</span> <span id="sign-in-identifier-or">or username</span>
          </span>
          {/* "webauthn": the browser may offer passkeys in this field's autofill menu (docs/passkeys.md#conditional-ui). */}
          <input
            name="identifier"
            autoComplete="username webauthn"
            autoCapitalize="none"
            spellCheck={false}
            aria-labelledby="sign-in-identifier-email sign-in-identifier-or"
            required
          />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <label className="inline">
          <input name="remember" type="checkbox" defaultChecked /> Keep me signed in
        </label>
        <div className="actions">
          <Submit action={action}>Sign in</Submit>
          <LastUsed methods={['email', 'username']} />
        </div>
        <Status action={action} />
      </form>
      <PasskeySignIn next={next} />
      <MagicLinkForm callbackURL={next} />
      <EmailCodeSignIn next={next} />
      <PhoneSignIn next={next} />
      <GuestSignIn next={next} />
      <SocialButtons callbackURL={next} errorCallbackURL="/sign-in" />
      <p>
        <Link to="/forgot-password">Forgot your password?</Link> · <Link to={`/sign-up${query.size ? `?${query}` : ''}`}>Create an account</Link> ·{' '}
        <Link to={`/sso${query.size ? `?${query}` : ''}`}>Sign in with SSO</Link> <LastUsed methods={['sso']} />
      </p>
    </section>
  )
}

/**
 * Passwordless sign-in (docs/magic-link.md): the server mails a link that signs in
 * (and signs up a new address) when opened, then lands on `callbackURL`. The
 * answer is the same whether or not the address has an account.
 */
function MagicLinkForm({ callbackURL }: { callbackURL: string }) {
  const action = useAction()
  return (
    <form
      aria-label="Sign in with a link"
      onSubmit={(event) => {
        const { email = '' } = fields(event)
        void action.run(
          () => client.signIn.magicLink({ email, callbackURL, errorCallbackURL: '/sign-in' }),
          undefined,
          'Check your email: we sent you a sign-in link.',
        )
      }}
    >
      <label>
        Address for a sign-in link
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <div className="actions">
        <Submit action={action}>Email me a sign-in link</Submit>
        <LastUsed methods={['magic-link']} />
      </div>
      <Status action={action} />
    </form>
  )
}

export function ForgotPasswordPage() {
  const action = useAction()
  return (
    <section>
      <h1>Forgot your password?</h1>
      <p>We will mail you a link to choose a new one.</p>
      <form
        onSubmit={(event) => {
          const { email = '' } = fields(event)
          // The server answers the same for unknown addresses: nothing here reveals who has an account.
          void action.run(
            () => client.requestPasswordReset({ email, redirectTo: '/reset-password' }),
            undefined,
            'If this email exists in our system, check your email for the reset link.',
          )
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <Submit action={action}>Send the link</Submit>
        <Status action={action} />
      </form>
    </section>
  )
}

export function ResetPasswordPage() {
  const action = useAction()
  const { query } = useLocation()
  const [done, setDone] = useState(false)
  const token = query.get('token')
  if (query.get('error') || !token) {
    return (
      <section>
        <h1>Reset your password</h1>
        <p role="alert" className="error">
          This reset link is invalid or has expired.
        </p>
        <Link to="/forgot-password">Ask for a new link</Link>
      </section>
    )
  }
  return (
    <section>
      <h1>Choose a new password</h1>
      {done ? (
        <p className="notice">
          Your password has been changed. <Link to="/sign-in">Sign in</Link>
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            const { password = '' } = fields(event)
            void action.run(() => client.resetPassword({ newPassword: password, token }), () => setDone(true))
          }}
        >
          <label>
            New password
            <input name="password" type="password" autoComplete="new-password" minLength={8} maxLength={128} required />
          </label>
          <Submit action={action}>Set password</Submit>
          <Status action={action} />
        </form>
      )}
    </section>
  )
}
