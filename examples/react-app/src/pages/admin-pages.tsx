/**
 * The admin plugin's page (docs/admin.md): users with search and paging,
 * ban and unban, and impersonation. The nav link shows only to users the
 * server says may list users; the server checks every call again anyway.
 * While impersonating, a banner offers the way back.
 */
import { useCallback, useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client, type SessionData } from '../auth-client.js'
import { navigate } from '../router.js'

const PAGE_SIZE = 10

/** Whether the signed-in user may use the admin page: asked of the server, once per user. */
export function useIsAdmin(session: SessionData | null): boolean {
  const [admin, setAdmin] = useState(false)
  const userId = session?.user.id ?? null
  useEffect(() => {
    setAdmin(false)
    if (userId === null) return
    let current = true
    void client.admin.hasPermission({ permissions: { user: ['list'] } }).then(({ data }) => {
      if (current) setAdmin(data?.success === true)
    })
    return () => {
      current = false
    }
  }, [userId])
  return admin
}

type UserRow = NonNullable<Awaited<ReturnType<typeof client.admin.listUsers>>['data']>['users'][number]

export function AdminPage({ session }: { session: SessionData }) {
  const [search, setSearch] = useState('')
  const [offset, setOffset] = useState(0)
  const [page, setPage] = useState<{ users: UserRow[]; total: number } | null>(null)
  const load = useAction()
  const act = useAction()

  const refresh = useCallback(() => {
    void load.run(
      () => client.admin.listUsers({ searchValue: search, searchField: 'email', limit: PAGE_SIZE, offset, sortBy: 'email' }),
      (result) => setPage(result.data ? { users: result.data.users, total: result.data.total } : null),
    )
    // Reloads when the query changes; `load` is a new object on every render and would reload forever.
  }, [search, offset])
  useEffect(refresh, [refresh])

  const last = page ? Math.max(0, Math.ceil(page.total / PAGE_SIZE) - 1) : 0
  return (
    <section>
      <h1>Users</h1>
      <form
        role="search"
        onSubmit={(event) => {
          const { q = '' } = fields(event)
          setOffset(0)
          setSearch(q.trim())
        }}
      >
        <label>
          Email contains
          <input name="q" type="search" defaultValue={search} />
        </label>
        <Submit action={load}>Search</Submit>
      </form>
      <Status action={load} />
      {page ? (
        <>
          <p className="muted">
            {page.total === 0 ? 'No users.' : `Users ${offset + 1}–${offset + page.users.length} of ${page.total}.`}
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.users.map((user) => (
                <tr key={user.id}>
                  <td>{user.email}</td>
                  <td>{user.name}</td>
                  <td>{user.role ?? 'user'}</td>
                  <td>{user.banned ? `Banned${user.banReason ? `: ${user.banReason}` : ''}` : 'Active'}</td>
                  <td>
                    {user.id === session.user.id ? (
                      <span className="muted">you</span>
                    ) : (
                      <>
                        {user.banned ? (
                          <button type="button" onClick={() => void act.run(() => client.admin.unbanUser({ userId: user.id }), refresh, `Unbanned ${user.email}.`)}>
                            Unban
                          </button>
                        ) : (
                          <BanButton user={user} onDone={refresh} />
                        )}{' '}
                        <button
                          type="button"
                          disabled={user.banned === true}
                          onClick={() => void act.run(() => client.admin.impersonateUser({ userId: user.id }), () => navigate('/'))}
                        >
                          Impersonate
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </button>{' '}
            <button type="button" disabled={offset >= last * PAGE_SIZE} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </button>
          </nav>
        </>
      ) : null}
      <Status action={act} />
    </section>
  )
}

function BanButton({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const ban = useAction()
  const [open, setOpen] = useState(false)
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Ban
      </button>
    )
  }
  return (
    <form
      aria-label={`Ban ${user.email}`}
      className="inline"
      onSubmit={(event) => {
        const { reason = '', days = '' } = fields(event)
        const banExpiresIn = days === '' ? undefined : Math.round(Number(days) * 86_400)
        void ban.run(
          () => client.admin.banUser({ userId: user.id, ...(reason ? { banReason: reason } : {}), ...(banExpiresIn ? { banExpiresIn } : {}) }),
          () => {
            setOpen(false)
            onDone()
          },
        )
      }}
    >
      <label>
        Reason
        <input name="reason" maxLength={1000} />
      </label>
      <label>
        Days (empty: until unbanned)
        <input name="days" type="number" min="1" step="1" />
      </label>
      <Submit action={ban}>Ban {user.email}</Submit>
      <Status action={ban} />
    </form>
  )
}

/** Shown while an admin acts as another user: the way back to their own session. */
export function ImpersonationBanner({ session }: { session: SessionData }) {
  const action = useAction()
  if (typeof session.session.impersonatedBy !== 'string') return null
  return (
    <div className="banner" role="status">
      You are acting as <strong>{session.user.email}</strong>.{' '}
      <button type="button" onClick={() => void action.run(() => client.admin.stopImpersonating(), () => navigate('/admin'))}>
        Stop impersonating
      </button>
      <Status action={action} />
    </div>
  )
}
