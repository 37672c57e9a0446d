/**
 * @module
 * Addresses that an account moved to by change-email and nobody has proven
 * yet (docs/security.md#an-address-moved-onto-by-change-email-is-proven-by-its-owner).
 *
 * The attack: someone with an account moves it onto an address nobody has
 * registered (the victim's work address), confirming from their own old
 * mailbox. The account now sits on the victim's address, unverified, and its
 * holder keeps a session and a password. When the victim opens the
 * verification mail that reaches them, a plain verification would hand them
 * a verified account that the other person still signs in to.
 *
 * So a move leaves a marker (a verification row naming the user and the
 * address), and the first verification of that address reads it: opened in
 * a browser signed in as the account, the holder proved their own new
 * mailbox; opened anywhere else, the owner of the mailbox proved it, and
 * the proof ends whatever predates it, as a reset does (`proveMailbox`).
 * The marker lives in the verification table so no column is needed; it
 * does not expire on its own, because the attack can wait, and goes with
 * the first verification of the address or the next move.
 */
import type { Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { User } from '../types/rows.js'

const PREFIX = 'email-moved:'
/** Far enough that no cleanup of expired verifications removes a marker. */
const MARKER_LIFETIME_MS = 100 * 365 * 24 * 3600 * 1000

/**
 * Records that `userId` moved to `email` (after the move committed).
 *
 * @example
 * const moved = await moveEmail(ctx.db, user.id, user.email, { email: newEmail, emailVerified: false })
 * if (moved && moved !== 'taken') await recordEmailMove(ctx.db, ctx.clock.now(), user.id, newEmail)
 */
export async function recordEmailMove(db: Store, now: Date, userId: string, email: string): Promise<void> {
  await db.deleteMany({ model: 'verification', where: { field: 'identifier', value: PREFIX + userId } })
  await db.create({
    model: 'verification',
    data: { identifier: PREFIX + userId, value: email, expiresAt: new Date(now.getTime() + MARKER_LIFETIME_MS) },
  })
}

/** Whether `user` sits on an address it moved to and nobody has proven since. */
export async function hasUnprovenMove(db: Store, user: User): Promise<boolean> {
  const markers = await db.findMany<{ value: string } & Row>({ model: 'verification', where: { field: 'identifier', value: PREFIX + user.id } })
  return markers.some((marker) => marker.value === user.email)
}

/** Forgets the user's move markers: the address was proven. */
export async function clearEmailMoves(db: Store, userId: string): Promise<void> {
  await db.deleteMany({ model: 'verification', where: { field: 'identifier', value: PREFIX + userId } })
}
