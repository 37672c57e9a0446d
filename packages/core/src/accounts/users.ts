/**
 * @module
 * Lookups shared by the account routes.
 */
import { isUniqueViolation, type Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { User } from '../types/rows.js'

export interface Account {
  [field: string]: unknown
  id: string
  providerId: string
  accountId: string
  userId: string
  password: string | null
  scope: string | null
  createdAt: Date
  updatedAt: Date
}

export const CREDENTIAL_PROVIDER = 'credential'

/** The user with this (already normalised) email. */
export function findUserByEmail(db: Store, email: string): Promise<User | null> {
  return db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
}

export function findUserById(db: Store, id: string): Promise<User | null> {
  return db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: id } })
}

/** The email-and-password account of a user (providerId "credential", docs/core.md#tables). */
export function findCredentialAccount(db: Store, userId: string): Promise<Account | null> {
  return db.findOne<Account & Row>({
    model: 'account',
    where: [
      { field: 'userId', value: userId },
      { field: 'providerId', value: CREDENTIAL_PROVIDER },
    ],
  })
}

/**
 * Moves a user's email from `from` to `update.email` as one compare-and-set:
 * matching the old address too means a concurrent change of the same user is
 * never overwritten. Null when the user no longer has `from`; 'taken' when
 * the unique index says the new address belongs to someone else.
 */
export async function moveEmail(
  db: Store,
  userId: string,
  from: string,
  update: { email: string; emailVerified: boolean },
): Promise<User | 'taken' | null> {
  try {
    return await db.update<User & Row>({
      model: 'user',
      where: [
        { field: 'id', value: userId },
        { field: 'email', value: from },
      ],
      update,
    })
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken'
    throw error
  }
}
