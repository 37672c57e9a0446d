/**
 * Next.js runs `register()` once when the server starts, before it answers
 * a request: the place for the migrations the other examples run in their
 * main module (they only add what is missing).
 */
export async function register(): Promise<void> {
  // The edge runtime has no SQLite or PostgreSQL driver, and no migrations to run.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { runMigrations } = await import('@gatehouse/core')
  const { auth, baseURL } = await import('./lib/auth')
  await runMigrations(auth)
  console.log(`Gatehouse on Next.js ready on ${baseURL}`)
}
