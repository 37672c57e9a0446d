/**
 * The security page's phone number (docs/phone-number.md): the number the
 * account holds, and adding or replacing it. A number is only ever set by
 * proving it: the server texts a code, and `verify` with `updatePhoneNumber`
 * gives the number to the signed-in account, so nobody can claim a number
 * they do not hold and lock its owner out of signing in by it.
 */
import { client, type SessionData } from '../auth-client.js'
import { CodeForm } from './code-form.js'

export function PhoneNumberSection({ session }: { session: SessionData }) {
  // Fields the phone-number plugin adds to the user (docs/phone-number.md#tables).
  const phoneNumber = typeof session.user.phoneNumber === 'string' ? session.user.phoneNumber : null
  const phoneNumberVerified = session.user.phoneNumberVerified === true
  return (
    <section aria-labelledby="phone-number">
      <h2 id="phone-number">Phone number</h2>
      {phoneNumber ? (
        <p>
          Your number: <strong data-testid="phone-number">{phoneNumber}</strong> {phoneNumberVerified ? '(verified)' : '(not verified)'}. You can
          sign in with a code texted to it.
        </p>
      ) : (
        <p>No phone number yet. Add one to sign in with a code texted to it.</p>
      )}
      <CodeForm
        label={phoneNumber ? 'Replace your phone number' : 'Add a phone number'}
        target={{ label: 'Phone number', type: 'tel', autoComplete: 'tel', placeholder: '+14155550100' }}
        sendLabel="Text me a code"
        send={(number) => client.phoneNumber.sendOtp({ phoneNumber: number })}
        sent={(number) => `We texted a code to ${number}. It works for 5 minutes.`}
        verifyLabel="Add this number"
        // The session's user is read again (the route refreshes the session store), so the number above follows.
        verify={(number, code) => client.phoneNumber.verify({ phoneNumber: number, code, updatePhoneNumber: true })}
        verified="Phone number added."
      />
    </section>
  )
}
