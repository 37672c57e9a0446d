'use client'
/** Sign-up through the client: the answer sets the session cookie, then the dashboard opens. */
import Link from 'next/link'
import { useAuthForm } from '../../components/use-auth-form'
import { client } from '../../lib/auth-client'

export default function SignUpPage() {
  // The verification link (printed to the console) leads back to the dashboard.
  const { error, onSubmit } = useAuthForm((fields) =>
    client.signUp.email({
      name: String(fields.get('name')),
      email: String(fields.get('email')),
      password: String(fields.get('password')),
      callbackURL: '/dashboard',
    }),
  )
  return (
    <>
      <h1>Sign up</h1>
      <form onSubmit={onSubmit}>
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
          <input name="password" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <button type="submit">Sign up</button>
        <p role="alert">{error}</p>
      </form>
      <p>
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </>
  )
}
