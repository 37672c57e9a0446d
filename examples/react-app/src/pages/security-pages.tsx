/**
 * Security settings (docs/two-factor.md): turning two-factor on with an
 * authenticator app (QR code, and the secret as text for typing it in),
 * confirming it with a first code, showing and regenerating backup codes,
 * and turning it off. Each step asks for the password again: a session left
 * open on a shared computer must not be enough to change the second factor.
 * Once it is on, new backup codes and turning it off also need a current
 * code (authenticator or backup code), except within 10 minutes of passing
 * the second factor in this session (docs/two-factor.md#proof-of-the-second-factor):
 * the field may stay empty then.
 * Emailed codes are a way past the second step the user chooses, with the
 * same proof (docs/two-factor.md#email-codes); turning them off takes the
 * password only.
 * Other sections (phone number, passkeys, API keys) sit beside the two-factor one on this page.
 */
import QRCode from 'qrcode'
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client, type SessionData } from '../auth-client.js'
import { ApiKeySection } from './api-keys.js'
import { PasskeySection } from './passkeys.js'
import { PhoneNumberSection } from './phone-number.js'

/** The base32 secret inside an otpauth:// URI, for people who type it into their app. */
function secretOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get('secret') ?? ''
  } catch {
    return ''
  }
}

export function SecurityPage({ session }: { session: SessionData }) {
  return (
    <section>
      <h1>Security</h1>
      <TwoFactorSection session={session} />
      <PhoneNumberSection session={session} />
      <PasskeySection />
      <ApiKeySection />
    </section>
  )
}

function TwoFactorSection({ session }: { session: SessionData }) {
  // A field the two-factor plugin adds to the user (docs/two-factor.md#tables).
  const enabled = (session.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: readonly string[] } | null>(null)
  const [codes, setCodes] = useState<readonly string[] | null>(null)
  const enable = useAction()
  const confirm = useAction()
  const regenerate = useAction()
  const disable = useAction()
  const emailOn = useAction()
  const emailOff = useAction()

  return (
    <section aria-labelledby="two-factor">
      <h2 id="two-factor">Two-factor authentication</h2>
      <p>
        Status: <strong data-testid="two-factor-status">{enabled ? 'on' : 'off'}</strong>
      </p>
      {!enabled && !setup ? (
        <form
          aria-label="Turn on two-factor"
          onSubmit={(event) => {
            const { password = '' } = fields(event)
            void enable.run(
              () => client.twoFactor.enable({ password }),
              (result) => setSetup(result.data ?? null),
            )
          }}
        >
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <Submit action={enable}>Turn on two-factor</Submit>
          <Status action={enable} />
        </form>
      ) : null}

      {!enabled && setup ? (
        <>
          <p>Scan this code with an authenticator app, or type the secret in, then enter the code it shows.</p>
          <TotpQrCode totpURI={setup.totpURI} />
          <p>
            Secret: <code data-testid="totp-secret">{secretOf(setup.totpURI)}</code>
          </p>
          <BackupCodes codes={setup.backupCodes} />
          <form
            aria-label="Confirm two-factor"
            onSubmit={(event) => {
              const { code = '' } = fields(event)
              void confirm.run(
                () => client.twoFactor.verifyTotp({ code }),
                () => setSetup(null),
                'Two-factor is on.',
              )
            }}
          >
            <label>
              Code from the app
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" required />
            </label>
            <Submit action={confirm}>Confirm</Submit>
          </form>
        </>
      ) : null}
      <Status action={confirm} />

      {enabled ? (
        <>
          <form
            aria-label="New backup codes"
            onSubmit={(event) => {
              const { password = '', code = '' } = fields(event)
              void regenerate.run(
                () => client.twoFactor.generateBackupCodes({ password, ...(code ? { code } : {}) }),
                (result) => setCodes(result.data?.backupCodes ?? null),
                'New backup codes: the old ones no longer work.',
              )
            }}
          >
            <h3>Backup codes</h3>
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <ProofCodeField />
            <Submit action={regenerate}>Generate new backup codes</Submit>
            <Status action={regenerate} />
          </form>
          {codes ? <BackupCodes codes={codes} /> : null}
          <form
            aria-label="Turn on email codes"
            onSubmit={(event) => {
              const { password = '', code = '' } = fields(event)
              void emailOn.run(
                () => client.twoFactor.enableOtp({ password, ...(code ? { code } : {}) }),
                undefined,
                'Email codes are on: a code mailed to you now also signs you in.',
              )
            }}
          >
            <h3>Email codes</h3>
            <p>
              Off unless you turn them on. With them on, a code mailed to you passes the second step too: anyone who reads your
              mail could then sign in.
            </p>
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <ProofCodeField />
            <Submit action={emailOn}>Turn on email codes</Submit>
            <Status action={emailOn} />
          </form>
          <form
            aria-label="Turn off email codes"
            onSubmit={(event) => {
              const { password = '' } = fields(event)
              void emailOff.run(() => client.twoFactor.disableOtp({ password }), undefined, 'Email codes are off.')
            }}
          >
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <Submit action={emailOff}>Turn off email codes</Submit>
            <Status action={emailOff} />
          </form>
          <form
            aria-label="Turn off two-factor"
            onSubmit={(event) => {
              const { password = '', code = '' } = fields(event)
              void disable.run(() => client.twoFactor.disable({ password, ...(code ? { code } : {}) }), () => setCodes(null), 'Two-factor is off.')
            }}
          >
            <h3>Turn off</h3>
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <ProofCodeField />
            <Submit action={disable}>Turn off two-factor</Submit>
            <Status action={disable} />
          </form>
        </>
      ) : null}
    </section>
  )
}

/**
 * The proof of the second factor the server asks for besides the password
 * (403 TWO_FACTOR_PROOF_REQUIRED without it, once the last code is more than
 * 10 minutes old). Optional here: the server decides.
 */
function ProofCodeField() {
  return (
    <label>
      Code from your authenticator app, or a backup code
      <input name="code" autoComplete="one-time-code" />
      <small>Not needed within 10 minutes of entering a code.</small>
    </label>
  )
}

/** The otpauth:// URI as a QR code image, drawn in the browser (the secret never goes to a third party). */
function TotpQrCode({ totpURI }: { totpURI: string }) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    QRCode.toDataURL(totpURI, { margin: 1, width: 200 }).then(
      (url) => {
        if (current) setSrc(url)
      },
      () => {
        if (current) setSrc(null)
      },
    )
    return () => {
      current = false
    }
  }, [totpURI])
  return src ? <img src={src} width={200} height={200} alt="QR code for your authenticator app" /> : null
}

function BackupCodes({ codes }: { codes: readonly string[] }) {
  return (
    <div>
      <p>Backup codes: each works once, if you lose your authenticator. Keep them somewhere safe.</p>
      <ul className="codes" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  )
}
