/**
 * The protected page, a server component: it reads the session from the
 * request's cookies in-process (`auth.api.getSession`, no HTTP round trip)
 * and sends anyone without one to sign in. This check is the real one:
 * every request for the page makes it.
 */
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { signOutOnServer } from '../actions'
import { auth } from '../../lib/auth'
import { OrganizationSwitcher } from '../../components/organization-switcher'
import { SignOutButton } from '../../components/sign-out-button'

export default async function DashboardPage() {
  const requestHeaders = await headers()
  const session = await auth.api.getSession({ headers: requestHeaders })
  if (!session) redirect('/sign-in')
  const organization = await auth.api.getFullOrganization({ headers: requestHeaders })
  const { user } = session
  return (
    <>
      <h1>Dashboard</h1>
      <p>{`Signed in as ${user.name} <${user.email}>`}</p>
      <p>{user.emailVerified ? 'Email address verified.' : 'Email address not verified yet: the link is in the server console.'}</p>
      <p>{organization ? `Active organization: ${organization.name}` : 'No active organization.'}</p>
      <OrganizationSwitcher activeOrganizationId={organization?.id ?? null} />
      <SignOutButton />
      <form action={signOutOnServer}>
        <button type="submit">Sign out with a server action</button>
      </form>
    </>
  )
}
