'use client'
/** Sign-out through the client: /api/auth/sign-out clears the cookies, then the sign-in page opens. */
import { useRouter } from 'next/navigation'
import { client } from '../lib/auth-client'

export function SignOutButton() {
  const router = useRouter()
  async function signOut() {
    await client.signOut()
    router.push('/sign-in')
  }
  return (
    <button type="button" onClick={() => void signOut()}>
      Sign out
    </button>
  )
}
