import { redirect } from 'next/navigation'

/** The app is the dashboard; it sends visitors without a session on to sign in. */
export default function Home(): never {
  redirect('/dashboard')
}
