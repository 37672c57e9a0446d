'use client'
/**
 * Sign-in through the client, so it goes through /api/auth/sign-in/email and
 * its rate limit: the fourth wrong password within 10 s answers 429.
 */
import Link from 'next/link'
import { useAuthForm } from '../../components/use-auth-form'
import { client } from '../../lib/auth-client'

export default function SignInPage() {
  const { error, onSubmit } = useAuthForm((fields) => client.signIn.email({ email: String(fields.get('email')), password: String(fields.get('password')) }))
  return (
    <>
      <h1>Sign in</h1>
      <form onSubmit={onSubmit}>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
        <p role="alert">{error}</p>
      </form>
      <p>
        New here? <Link href="/sign-up">Sign up</Link>
      </p>
    </>
  )
}
