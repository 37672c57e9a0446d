/**
 * Magic-link tokens are rows of core's verification table
 * (docs/magic-link.md#cleanup), so the plugin adds no cleanup target of its
 * own: `auth.api.cleanup()` deletes links past their expiry with core's
 * verification values and leaves live links usable.
 */
import { describe, expect, it } from 'vitest'
import { linkAuth, openLink, requestLink, type LinkAuth } from './fixtures.js'

async function linkCount(auth: LinkAuth): Promise<number> {
  const { db } = await auth.$context
  const rows = await db.findMany<{ id: string; identifier: string }>({ model: 'verification' })
  return rows.filter((row) => row.identifier.startsWith('magic-link:')).length
}

describe('magic-link cleanup', () => {
  it('deletes expired links and keeps the live one, which still signs in', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'first@example.com', callbackURL: '/in' })
    const first = auth.lastLink()?.url ?? ''
    await requestLink(auth, { email: 'second@example.com', callbackURL: '/in' })
    auth.clock.advance(240_000)
    await requestLink(auth, { email: 'live@example.com', callbackURL: '/in' })
    const live = auth.lastLink()?.url ?? ''
    // Six minutes in: the first two links (5 minutes) have expired, the third has a minute left.
    auth.clock.advance(120_000)

    const { deleted } = await auth.api.cleanup()
    expect(deleted.verification).toBe(2)
    expect(await linkCount(auth)).toBe(1)
    expect((await auth.api.cleanup()).deleted.verification).toBe(0)

    // A deleted link answers like any unknown token; the live one signs in.
    expect((await openLink(auth, first)).location).toBe('/in?error=invalid_token')
    const opened = await openLink(auth, live)
    expect(opened.status).toBe(302)
    expect(opened.location).toBe('/in')
    expect(opened.cookie).toContain('gatehouse.session_token=')
    expect(await linkCount(auth)).toBe(0)
  })
})
