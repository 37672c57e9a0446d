/**
 * @module
 * An Express 5 app with Gatehouse: the auth handler at `/api/auth/*`
 * mounted before `express.json()` (the handler reads the raw body itself,
 * and the billing webhook's signature is over those exact bytes), the app's
 * own JSON routes behind `requireSession`, and the HTML pages in public/.
 * Migrations run at start-up.
 */
import { fileURLToPath } from 'node:url'
import { runMigrations } from '@gatehouse/core'
import { toNodeHandler } from '@gatehouse/core/node'
import express from 'express'
import { auth, baseURL } from './auth.js'
import { requireSession, type Session } from './require-session.js'

const port = Number(process.env.PORT ?? 3000)

await runMigrations(auth)

const app = express()

// Before express.json(): a parsed body would leave the handler nothing to read.
// toNodeHandler also hands over the socket's address, so rate limits count per client (docs/rate-limits.md).
app.all('/api/auth/{*path}', toNodeHandler(auth))

app.use(express.json())

app.get('/api/me', requireSession, (_req, res: express.Response<unknown, { session: Session }>) => {
  const { user, session } = res.locals.session
  res.json({ user: { id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified }, expiresAt: session.expiresAt })
})

app.use(express.static(fileURLToPath(new URL('../public', import.meta.url)), { extensions: ['html'] }))

app.listen(port, '127.0.0.1', (error) => {
  if (error) throw error
  console.log(`Gatehouse on Express ready on ${baseURL}`)
})
