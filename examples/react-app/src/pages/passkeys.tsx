/**
 * Passkeys (docs/passkeys.md): the security page's section that lists the
 * user's passkeys and adds, renames and deletes them (adding one asks for
 * the password, or with two-factor on for a code), and the sign-in
 * page's "Use a passkey" button. The sign-in page also offers
 * passkeys in the email field's autofill menu (conditional UI): its input
 * carries `autocomplete="username webauthn"`, and `PasskeySignIn` starts a
 * waiting request when the page opens. A prompt the user dismisses is not an
 * error worth showing.
 */
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { navigate } from '../router.js'
import { LastUsed } from './last-used.js'

/** Codes of a browser prompt that was dismissed, replaced by another, or cannot run here. */
const QUIET = new Set(['PASSKEY_CANCELLED', 'PASSKEY_NOT_SUPPORTED'])

export function PasskeySection() {
  const { data: passkeys, isPending } = client.usePasskeys()
  const add = useAction()
  return (
    <section aria-labelledby="passkeys">
      <h2 id="passkeys">Passkeys</h2>
      <p>Sign in with your fingerprint, face or device PIN instead of a password.</p>
      {isPending ? <p>Loading…</p> : null}
      {passkeys && passkeys.length === 0 ? <p>No passkeys yet.</p> : null}
      <ul className="passkeys" data-testid="passkey-list">
        {(passkeys ?? []).map((passkey) => (
          <PasskeyItem key={passkey.id} id={passkey.id} name={passkey.name} createdAt={passkey.createdAt} />
        ))}
      </ul>
      <form
        aria-label="Add a passkey"
        onSubmit={(event) => {
          const { name = '', password = '', code = '' } = fields(event)
          const form = event.currentTarget
          void add.run(
            async () => {
              // With two-factor on, the code proves the second factor on this session first (a step-up):
              // a passkey skips the second step, so adding one takes it (docs/passkeys.md#registering-a-passkey).
              if (code.trim()) {
                const proven = await client.twoFactor.verifyTotp({ code: code.trim() })
                if (proven.error) return proven
              }
              return client.passkey.addPasskey({ ...(name.trim() ? { name: name.trim() } : {}), ...(password ? { password } : {}) })
            },
            () => form.reset(),
            'Passkey added.',
          )
        }}
      >
        <label>
          Name (optional)
          <input name="name" maxLength={256} placeholder="This laptop" />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" />
          <small>Needed when your account has a password and no two-factor.</small>
        </label>
        <label>
          Code from your authenticator app
          <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" />
          <small>Needed with two-factor on, unless you entered a code in the last 10 minutes.</small>
        </label>
        <Submit action={add}>Add a passkey</Submit>
        <Status action={add} />
      </form>
    </section>
  )
}

function PasskeyItem({ id, name, createdAt }: { id: string; name: string | null; createdAt: Date }) {
  const [editing, setEditing] = useState(false)
  const rename = useAction()
  const remove = useAction()
  const label = name ?? 'Unnamed passkey'
  return (
    <li data-testid="passkey">
      {editing ? (
        <form
          aria-label={`Rename ${label}`}
          onSubmit={(event) => {
            const { name: next = '' } = fields(event)
            void rename.run(() => client.passkey.updatePasskey({ id, name: next }), () => setEditing(false))
          }}
        >
          <input name="name" defaultValue={name ?? ''} maxLength={256} required aria-label="New name" />
          <Submit action={rename}>Save</Submit>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <strong data-testid="passkey-name">{label}</strong> <small>added {createdAt.toLocaleDateString()}</small>{' '}
          <button type="button" onClick={() => setEditing(true)}>
            Rename
          </button>{' '}
          <button
            type="button"
            disabled={remove.pending}
            onClick={() => {
              if (window.confirm(`Delete ${label}? It will no longer sign you in.`)) void remove.run(() => client.passkey.deletePasskey({ id }))
            }}
          >
            Delete
          </button>
        </>
      )}
      <Status action={rename} />
      <Status action={remove} />
    </li>
  )
}

/**
 * The sign-in page's passkey button, plus the waiting autofill request while the page is open.
 * `next` is where to go once signed in.
 */
export function PasskeySignIn({ next }: { next: string }) {
  const action = useAction()
  useEffect(() => {
    let open = true
    void client.signIn.passkey({ autoFill: true }).then((result) => {
      if (open && !result.error) navigate(next)
    })
    return () => {
      open = false
    }
  }, [next])
  return (
    <div className="passkey-sign-in">
      <button
        type="button"
        disabled={action.pending}
        onClick={() =>
          void action.run(
            async () => {
              const result = await client.signIn.passkey()
              // Dismissing the browser's prompt is a choice, not a failure.
              return result.error && QUIET.has(result.error.code) ? { error: null } : result
            },
            (result) => {
              if ('data' in result && result.data) navigate(next)
            },
          )
        }
      >
        {action.pending ? 'Working…' : 'Use a passkey'}
      </button>{' '}
      <LastUsed methods={['passkey']} />
      <Status action={action} />
    </div>
  )
}
