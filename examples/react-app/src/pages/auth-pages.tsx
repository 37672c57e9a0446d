/**
 * Signing up, in and out of the account: sign-up, sign-in (password,
 * passkey, mailed link, single sign-on, social), forgot and reset password. Each form calls one client function and shows the server's
 * message when it fails ("Invalid email or password", "User already exists").
 */
import { isTwoFactorRedirect } from '@gatehouse/two-factor/client'
import { useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { Link, navigate, useLocation } from '../router.js'
import { PasskeySignIn } from './passkeys.js'
import { SocialButtons } from './social.js'

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
          const { name = '', email = '', password = '' } = fields(event)
          void action.run(() => client.signUp.email({ name, email, password, callbackURL: '/' }), () => navigate(nextPath(query)))
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

export function SignInPage() {
  const action = useAction()
  const { query } = useLocation()
  return (
    <section>
      <h1>Sign in</h1>
      <form
        onSubmit={(event) => {
          const { email = '', password = '', remember } = fields(event)
          void action.run(
            () => client.signIn.email({ email, password, rememberMe: remember === 'on' }),
            // Two-factor on (docs/two-factor.md#signing-in): no session yet, the code page comes next.
            (result) => navigate(isTwoFactorRedirect(result.data) ? `/two-factor?next=${encodeURIComponent(nextPath(query))}` : nextPath(query)),
          )
        }}
      >
        <label>
          Email
          {/* "webauthn": the browser may offer passkeys in this field's autofill menu (docs/passkeys.md#conditional-ui). */}
          <input name="email" type="email" autoComplete="username webauthn" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <label className="inline">
          <input name="remember" type="checkbox" defaultChecked /> Keep me signed in
        </label>
        <Submit action={action}>Sign in</Submit>
        <Status action={action} />
      </form>
      <PasskeySignIn next={nextPath(query)} />
      <MagicLinkForm callbackURL={nextPath(query)} />
      <SocialButtons callbackURL={nextPath(query)} errorCallbackURL="/sign-in" />
      <p>
        <Link to="/forgot-password">Forgot your password?</Link> · <Link to={`/sign-up${query.size ? `?${query}` : ''}`}>Create an account</Link> ·{' '}
        <Link to={`/sso${query.size ? `?${query}` : ''}`}>Sign in with SSO</Link>
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
      <Submit action={action}>Email me a sign-in link</Submit>
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
