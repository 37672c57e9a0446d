/**
 * Form plumbing shared by every page: run a client call, show "working…"
 * while it runs, then its error message (the server's, from its error
 * catalogue) or a success note, in a live region screen readers announce.
 */
import { useState, type FormEvent, type ReactNode } from 'react'

/** What every client call resolves to, as far as a form cares: an error with words, or none. */
export interface Outcome {
  readonly error?: { readonly message: string } | null
}

export interface Action {
  readonly pending: boolean
  readonly error: string | null
  readonly notice: string | null
  /** Runs `call`; on success runs `then` (when given) and shows `notice`. */
  run<R extends Outcome>(call: () => Promise<R>, then?: (result: R) => void | Promise<void>, notice?: string): Promise<void>
}

export function useAction(): Action {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  return {
    pending,
    error,
    notice,
    async run(call, then, successNotice) {
      setPending(true)
      setError(null)
      setNotice(null)
      try {
        const result = await call()
        if (result.error) {
          setError(result.error.message)
          return
        }
        await then?.(result)
        if (successNotice) setNotice(successNotice)
      } finally {
        setPending(false)
      }
    },
  }
}

/** Reads a form's named fields as strings. */
export function fields(event: FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault()
  const data = new FormData(event.currentTarget)
  const result: Record<string, string> = {}
  for (const [name, value] of data) if (typeof value === 'string') result[name] = value
  return result
}

export function Status({ action }: { action: Action }): ReactNode {
  return (
    <div aria-live="polite">
      {action.error ? (
        <p role="alert" className="error">
          {action.error}
        </p>
      ) : null}
      {action.notice ? <p className="notice">{action.notice}</p> : null}
    </div>
  )
}

export function Submit({ action, children }: { action: Action; children: ReactNode }) {
  return (
    <button type="submit" disabled={action.pending}>
      {action.pending ? 'Working…' : children}
    </button>
  )
}
