/**
 * @module
 * A guest becomes a member (docs/anonymous.md#linking): after any call that
 * set a new session cookie (a sign-up, a sign-in by any method, a second
 * factor completed, a social or SSO callback) in a browser whose session
 * was a guest's, in one transaction: the guest's user row is locked and
 * re-read (still a guest, still there), `onLinkAccount` moves the guest's
 * data to the new account through that transaction, and the guest is
 * deleted as any user is (its sessions and what plugins issued to it end).
 * Two sign-ins racing from one guest browser: the second finds the guest
 * gone and moves nothing. A throw of `onLinkAccount` rolls the move and the
 * deletion back: the guest and its data stay, the sign-in stands, and the
 * error is logged.
 */
import { deleteUserRows, findSession, readSessionToken, sessionCookieSet, type HookContext, type Row, type SessionWithUser, type User } from '@gatehouse/core'
import type { ResolvedAnonymousOptions } from './options.js'

async function live(ctx: HookContext, token: string): Promise<SessionWithUser | null> {
  const found = await findSession(ctx.auth, token)
  return found && found.session.expiresAt.getTime() > ctx.auth.clock.now().getTime() ? found : null
}

export function linkGuest(options: ResolvedAnonymousOptions) {
  return async (ctx: HookContext): Promise<void> => {
    const set = sessionCookieSet(ctx.cookies)
    const previous = readSessionToken(ctx)
    if (!set || !previous || previous === set.token) return
    const guest = await live(ctx, previous)
    if (!guest || guest.user.isAnonymous !== true) return
    const member = await live(ctx, set.token)
    if (!member || member.user.id === guest.user.id || member.user.isAnonymous === true) return
    try {
      await ctx.auth.db.transaction(async (tx) => {
        const locked = await tx.lock<User & Row>({ model: 'user', where: { field: 'id', value: guest.user.id } })
        // Linked by a sign-in that won the race, or deleted meanwhile: nothing left to move.
        if (!locked || locked.isAnonymous !== true) return
        await options.onLinkAccount?.({ anonymousUser: guest, newUser: member, db: tx, ctx })
        if (!options.disableDeleteAnonymousUser) await deleteUserRows(ctx.auth, guest.user.id, tx)
      })
    } catch (error) {
      ctx.auth.logger.error('anonymous: the guest was not linked; it and its data stay', {
        guestId: guest.user.id,
        error: error instanceof Error ? error.name : typeof error,
      })
    }
  }
}
