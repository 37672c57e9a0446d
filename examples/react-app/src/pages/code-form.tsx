/**
 * A one-time code in two steps on one form: the user names an address or a
 * number and the server sends a code there, then the user types the code
 * back. The sign-in page's "email me a code" (docs/email-otp.md) and phone
 * options, and the security page's phone number (docs/phone-number.md), are
 * all this form with other calls.
 */
import { useState, type ReactNode } from 'react'
import { fields, Status, Submit, useAction, type Outcome } from '../action.js'

export interface CodeFormProps<R extends Outcome> {
  /** The form's accessible name. */
  readonly label: string
  /** The first step's field: where the code goes. */
  readonly target: { readonly label: string; readonly type: 'email' | 'tel'; readonly autoComplete: string; readonly placeholder?: string }
  readonly sendLabel: string
  readonly send: (target: string) => Promise<Outcome>
  /** Said once the code is on its way; `target` as the user typed it. */
  readonly sent: (target: string) => string
  readonly verifyLabel: string
  readonly verify: (target: string, code: string) => Promise<R>
  /** After a right code; the form goes back to its first step. */
  readonly onVerified?: (result: R) => void | Promise<void>
  readonly verified?: string
  /** What else the first step shows (a "Last used" badge). */
  readonly children?: ReactNode
}

/**
 * @example
 * <CodeForm label="Add a phone number" target={{ label: 'Phone number', type: 'tel', autoComplete: 'tel' }}
 *   sendLabel="Text me a code" send={(phoneNumber) => client.phoneNumber.sendOtp({ phoneNumber })} sent={(to) => `We texted a code to ${to}.`}
 *   verifyLabel="Add this number" verify={(phoneNumber, code) => client.phoneNumber.verify({ phoneNumber, code, updatePhoneNumber: true })} />
 */
export function CodeForm<R extends Outcome>(props: CodeFormProps<R>) {
  const action = useAction()
  // Where the code went: null on the first step.
  const [target, setTarget] = useState<string | null>(null)
  return (
    <form
      aria-label={props.label}
      onSubmit={(event) => {
        const { target: typed = '', code = '' } = fields(event)
        if (target === null) {
          const to = typed.trim()
          void action.run(() => props.send(to), () => setTarget(to), props.sent(to))
          return
        }
        void action.run(
          () => props.verify(target, code.trim()),
          async (result) => {
            setTarget(null)
            await props.onVerified?.(result)
          },
          props.verified,
        )
      }}
    >
      {target === null ? (
        <>
          <label>
            {props.target.label}
            <input name="target" type={props.target.type} autoComplete={props.target.autoComplete} placeholder={props.target.placeholder} required />
          </label>
          <div className="actions">
            <Submit action={action}>{props.sendLabel}</Submit>
            {props.children}
          </div>
        </>
      ) : (
        <>
          <label>
            Code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" required autoFocus />
          </label>
          <div className="actions">
            <Submit action={action}>{props.verifyLabel}</Submit>
            <button type="button" className="secondary" disabled={action.pending} onClick={() => setTarget(null)}>
              Send to another {props.target.type === 'tel' ? 'number' : 'address'}
            </button>
          </div>
        </>
      )}
      <Status action={action} />
    </form>
  )
}
