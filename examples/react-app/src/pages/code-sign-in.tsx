/**
 * The sign-in page's options without a password: a six-digit code by mail
 * (docs/email-otp.md#signing-in) and a code by text message
 * (docs/phone-number.md#verifying-and-signing-in). Either signs a new
 * address or number up, and either may still ask for the second factor.
 */
import { isTwoFactorRedirect } from '@gatehouse/two-factor/client'
import { client } from '../auth-client.js'
import { navigate } from '../router.js'
import { CodeForm } from './code-form.js'
import { LastUsed } from './last-used.js'

/**
 * Where a first factor leads: the two-factor page when the server holds the
 * sign-in for its second step (docs/two-factor.md#signing-in: no session
 * yet), else `next`.
 *
 * @example
 * void action.run(() => client.signIn.email({ email, password }), (result) => afterSignIn(result.data, '/'))
 */
export function afterSignIn(data: unknown, next: string): void {
  navigate(isTwoFactorRedirect(data) ? `/two-factor?next=${encodeURIComponent(next)}` : next)
}

/** "Email me a code": a code to any address; the right one signs in, or signs the address up. */
export function EmailCodeSignIn({ next }: { next: string }) {
  return (
    // No "email" in these labels: the page's password field is the one called Email.
    <CodeForm
      label="Sign in with a code by mail"
      target={{ label: 'Address for a code', type: 'email', autoComplete: 'email' }}
      sendLabel="Email me a code"
      send={(email) => client.emailOtp.sendVerificationOtp({ email, type: 'sign-in' })}
      sent={(email) => `We sent a code to ${email}. It works for 5 minutes.`}
      verifyLabel="Verify code"
      verify={(email, otp) => client.signIn.emailOtp({ email, otp })}
      onVerified={(result) => afterSignIn(result.data, next)}
    >
      <LastUsed methods={['email-otp']} />
    </CodeForm>
  )
}

/** "Text me a code": a code to any valid number; the right one signs in the number's account, or signs the number up. */
export function PhoneSignIn({ next }: { next: string }) {
  return (
    <CodeForm
      label="Sign in with a phone number"
      target={{ label: 'Phone number', type: 'tel', autoComplete: 'tel', placeholder: '+14155550100' }}
      sendLabel="Text me a code"
      send={(phoneNumber) => client.phoneNumber.sendOtp({ phoneNumber })}
      sent={(phoneNumber) => `We texted a code to ${phoneNumber}. It works for 5 minutes.`}
      verifyLabel="Verify code"
      verify={(phoneNumber, code) => client.phoneNumber.verify({ phoneNumber, code })}
      onVerified={(result) => afterSignIn(result.data, next)}
    >
      <LastUsed methods={['phone-number']} />
    </CodeForm>
  )
}
