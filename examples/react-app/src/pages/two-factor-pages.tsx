/**
 * The second step of signing in (docs/two-factor.md#signing-in): the
 * password was right and the server answered `twoFactorRedirect`, holding
 * the attempt in a short-lived cookie. Here the user enters the code from
 * their authenticator app (and may trust this browser for 30 days), or,
 * when they turned email codes on, has a code mailed, or uses a backup code.
 * Each success creates the session.
 */
import { useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { navigate, useLocation } from '../router.js'

/**
 * Where to go once signed in: a same-site path from ?next= (the password
 * sign-in) or ?callbackURL= (a single sign-on whose provider asks for the
 * second factor, docs/sso.md#two-factor), else home.
 */
function nextPath(query: URLSearchParams): string {
  const next = query.get('next') ?? query.get('callbackURL') ?? '/'
  return next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

export function TwoFactorPage() {
  const { query } = useLocation()
  const [mode, setMode] = useState<'totp' | 'email' | 'backup'>('totp')
  const totp = useAction()
  const send = useAction()
  const otp = useAction()
  const backup = useAction()
  const done = () => navigate(nextPath(query), { replace: true })
  return (
    <section>
      <h1>Two-factor authentication</h1>
      {mode === 'totp' ? (
        <form
          aria-label="Authenticator code"
          onSubmit={(event) => {
            const { code = '', trust } = fields(event)
            void totp.run(() => client.twoFactor.verifyTotp({ code, trustDevice: trust === 'on' }), done)
          }}
        >
          <label>
            Code from your authenticator app
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" required autoFocus />
          </label>
          <label className="inline">
            <input name="trust" type="checkbox" /> Trust this device for 30 days
          </label>
          <Submit action={totp}>Verify</Submit>
          <Status action={totp} />
        </form>
      ) : null}

      {mode === 'email' ? (
        <>
          <button type="button" disabled={send.pending} onClick={() => void send.run(() => client.twoFactor.sendOtp(), undefined, 'We mailed you a code.')}>
            Email me a code
          </button>
          <Status action={send} />
          <form
            aria-label="Emailed code"
            onSubmit={(event) => {
              const { code = '' } = fields(event)
              void otp.run(() => client.twoFactor.verifyOtp({ code }), done)
            }}
          >
            <label>
              Code from the email
              <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
            </label>
            <Submit action={otp}>Verify</Submit>
            <Status action={otp} />
          </form>
        </>
      ) : null}

      {mode === 'backup' ? (
        <form
          aria-label="Backup code"
          onSubmit={(event) => {
            const { code = '' } = fields(event)
            void backup.run(() => client.twoFactor.verifyBackupCode({ code }), done)
          }}
        >
          <label>
            Backup code
            <input name="code" autoComplete="off" required />
          </label>
          <Submit action={backup}>Verify</Submit>
          <Status action={backup} />
        </form>
      ) : null}

      <p>
        {mode !== 'totp' ? (
          <button type="button" className="link" onClick={() => setMode('totp')}>
            Use the authenticator app
          </button>
        ) : null}{' '}
        {mode !== 'email' ? (
          <button type="button" className="link" onClick={() => setMode('email')}>
            Email me a code instead
          </button>
        ) : null}{' '}
        {mode !== 'backup' ? (
          <button type="button" className="link" onClick={() => setMode('backup')}>
            Use a backup code
          </button>
        ) : null}
      </p>
    </section>
  )
}
