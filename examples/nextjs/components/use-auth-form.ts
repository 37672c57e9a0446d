/**
 * What the sign-up and sign-in forms share: submit the form's fields to one
 * client call, show its error in the form's alert, or open the dashboard.
 */
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'

type Call = (fields: FormData) => Promise<{ readonly error: { readonly message: string } | null }>

/**
 * @example
 * const { error, onSubmit } = useAuthForm((fields) => client.signIn.email({ email: String(fields.get('email')), password: String(fields.get('password')) }))
 */
export function useAuthForm(call: Call): { readonly error: string; readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void } {
  const router = useRouter()
  const [error, setError] = useState('')
  async function submit(form: HTMLFormElement) {
    setError('')
    const result = await call(new FormData(form))
    // The answer set the session cookie: the dashboard's server component reads it on this navigation.
    if (result.error) setError(result.error.message)
    else router.push('/dashboard')
  }
  return {
    error,
    onSubmit: (event) => {
      event.preventDefault()
      void submit(event.currentTarget)
    },
  }
}
