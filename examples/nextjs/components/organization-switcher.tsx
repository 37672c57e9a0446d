'use client'
/**
 * The caller's organizations, from the client's store: create one, switch
 * the active one. After a change `router.refresh()` renders the dashboard's
 * server component again, which reads the new active organization from
 * the session.
 */
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { client } from '../lib/auth-client'

export function OrganizationSwitcher({ activeOrganizationId }: { readonly activeOrganizationId: string | null }) {
  const router = useRouter()
  const organizations = client.useListOrganizations()
  const [error, setError] = useState('')

  async function after(result: { readonly error: { readonly message: string } | null }) {
    if (result.error) return setError(result.error.message)
    setError('')
    router.refresh()
  }
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const fields = new FormData(form)
    const result = await client.organization.create({ name: String(fields.get('name')), slug: String(fields.get('slug')) })
    if (!result.error) form.reset()
    await after(result)
  }

  return (
    <section aria-labelledby="organizations">
      <h2 id="organizations">Organizations</h2>
      <ul>
        {(organizations.data ?? []).map((organization) => (
          <li key={organization.id}>
            {organization.name}{' '}
            {organization.id === activeOrganizationId ? (
              <em>(active)</em>
            ) : (
              <button type="button" onClick={() => void client.organization.setActive({ organizationId: organization.id }).then(after)}>
                Switch to {organization.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={(event) => void create(event)}>
        <label>
          Organization name
          <input name="name" required />
        </label>
        <label>
          Slug
          <input name="slug" pattern="[a-z0-9\-]+" title="lower-case letters, digits and hyphens" required />
        </label>
        <button type="submit">Create organization</button>
        <p role="alert">{error}</p>
      </form>
    </section>
  )
}
