/**
 * The sign-up form's optional username (docs/username.md): behind a
 * "Choose a username" button, a field that asks the server whether the name
 * is free as the user types (a moment after the last key) and when it loses
 * focus. The server compares names case- and width-folded, so "Ada" is taken
 * when "ada" is. Its answer is a hint: the sign-up itself still refuses a
 * taken name.
 */
import { useEffect, useRef, useState } from 'react'
import { client } from '../auth-client.js'

/** How long typing pauses before a check: the route allows 20 checks a minute per client. */
const PAUSE_MS = 400

type Check =
  | { readonly name: string; readonly state: 'checking' | 'available' | 'taken' }
  | { readonly name: string; readonly state: 'refused'; readonly message: string }

export function UsernameField() {
  const [shown, setShown] = useState(false)
  const [check, setCheck] = useState<Check | null>(null)
  // The name whose answer counts: an answer for an older name arriving late is dropped.
  const latest = useRef('')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const ask = (typed: string) => {
    clearTimeout(timer.current)
    const name = typed.trim()
    if (name === check?.name && check.state !== 'checking') return
    latest.current = name
    if (name === '') {
      setCheck(null)
      return
    }
    setCheck({ name, state: 'checking' })
    void client.isUsernameAvailable({ username: name }).then((result) => {
      if (latest.current !== name) return
      if (result.error) setCheck({ name, state: 'refused', message: result.error.message })
      else setCheck({ name, state: result.data.available ? 'available' : 'taken' })
    })
  }

  if (!shown) {
    return (
      <button type="button" className="secondary" onClick={() => setShown(true)}>
        Choose a username
      </button>
    )
  }
  return (
    <div className="field">
      <label>
        Username
        <input
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={120}
          aria-describedby="username-hint username-check"
          aria-invalid={check?.state === 'taken' || check?.state === 'refused'}
          autoFocus
          onChange={(event) => {
            const typed = event.currentTarget.value
            latest.current = typed.trim()
            // An answer about another name no longer describes the field.
            if (check && check.name !== typed.trim()) setCheck(null)
            clearTimeout(timer.current)
            timer.current = setTimeout(() => ask(typed), PAUSE_MS)
          }}
          onBlur={(event) => ask(event.currentTarget.value)}
        />
      </label>
      <small id="username-hint">Optional. Letters, digits, “_” and “.”; you can then sign in with it instead of your address.</small>
      <div id="username-check" aria-live="polite">
        {check?.state === 'available' ? <p className="notice">Username is available</p> : null}
        {check?.state === 'taken' ? (
          <p role="alert" className="error">
            Username is taken
          </p>
        ) : null}
        {check?.state === 'refused' ? (
          <p role="alert" className="error">
            {check.message}
          </p>
        ) : null}
      </div>
    </div>
  )
}
