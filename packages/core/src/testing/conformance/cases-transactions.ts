/**
 * @module
 * Conformance cases for `transaction`, `consume` and `migrate`. Sign-up
 * writes a user and an account in one transaction; single-use tokens
 * (password reset, OAuth state, magic links) are redeemed with `consume`, so
 * two concurrent redemptions of one token must not both succeed: that race is
 * a token-replay vulnerability, not a flaky test. Limits (members of an
 * organization, say) are checked by locking the parent row with `lock`,
 * counting and inserting in one transaction: without a real lock two
 * requests both see room for one more.
 */
import type { Row } from '../../db/adapter.js'
import { equal, ok, rejects, rejectsWithCode, rowEqual, sameIds } from './assert.js'
import { ITEM, itemRow, pause, userRow, verificationRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const byId = (id: string) => ({ field: 'id', value: id }) as const
const identifier = (value: string) => ({ field: 'identifier', value }) as const

class Marker extends Error {}

export const transactionCases: readonly CaseDefinition[] = [
  {
    name: 'transaction commits every write and returns the result',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('old') })
      const result = await adapter.transaction(async (tx) => {
        await tx.create({ model: 'user', data: userRow('ada') })
        await tx.update({ model: 'user', where: byId('ada'), update: { name: 'Ada' } })
        await tx.delete({ model: 'user', where: byId('old') })
        return 'done'
      })
      equal(result, 'done', 'transaction() result')
      sameIds(await adapter.findMany({ model: 'user' }), ['ada'], 'users after commit')
      rowEqual(await adapter.findOne({ model: 'user', where: byId('ada') }), userRow('ada', { name: 'Ada' }), 'ada after commit')
    },
  },
  {
    name: 'transaction reads its own writes',
    async body({ adapter }) {
      await adapter.transaction(async (tx) => {
        await tx.create({ model: 'user', data: userRow('ada') })
        equal((await tx.findOne({ model: 'user', where: byId('ada') }))?.id, 'ada', 'findOne inside the transaction')
        equal(await tx.count({ model: 'user' }), 1, 'count inside the transaction')
        await tx.update({ model: 'user', where: byId('ada'), update: { name: 'Ada' } })
        equal((await tx.findMany({ model: 'user' }))[0]?.name, 'Ada', 'findMany after update inside the transaction')
      })
    },
  },
  {
    name: 'transaction rolls back every write when fn throws, and rethrows the error',
    requires: ['transactions'],
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('old') })
      await adapter.create({ model: 'verification', data: verificationRow('v-1', 'reset:old') })
      const marker = new Marker('abort')
      const error = await rejects(
        adapter.transaction(async (tx) => {
          await tx.create({ model: 'user', data: userRow('ada') })
          await tx.update({ model: 'user', where: byId('old'), update: { name: 'Changed' } })
          await tx.delete({ model: 'verification', where: byId('v-1') })
          throw marker
        }),
        'transaction() whose fn throws',
      )
      ok(error === marker, 'transaction() must reject with the very error fn threw')
      sameIds(await adapter.findMany({ model: 'user' }), ['old'], 'users after rollback')
      rowEqual(await adapter.findOne({ model: 'user', where: byId('old') }), userRow('old'), 'the updated user is restored')
      rowEqual(await adapter.findOne({ model: 'verification', where: byId('v-1') }), verificationRow('v-1', 'reset:old'), 'the deleted row is restored')
    },
  },
  {
    name: 'a failed write inside a transaction rolls back the whole transaction',
    requires: ['transactions'],
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('taken', { email: 'taken@example.com' }) })
      await rejectsWithCode(
        adapter.transaction(async (tx) => {
          await tx.create({ model: 'user', data: userRow('ada') })
          await tx.create({ model: 'user', data: userRow('dup', { email: 'taken@example.com' }) })
        }),
        'UNIQUE_VIOLATION',
        'transaction() with a duplicate email',
      )
      sameIds(await adapter.findMany({ model: 'user' }), ['taken'], 'users after the failed transaction')
    },
  },
  {
    name: 'a nested transaction commits with the outer one',
    async body({ adapter }) {
      const inner = await adapter.transaction(async (tx) => {
        await tx.create({ model: 'user', data: userRow('outer') })
        return tx.transaction(async (nested) => {
          await nested.create({ model: 'user', data: userRow('inner') })
          return (await nested.findOne({ model: 'user', where: byId('outer') }))?.id
        })
      })
      equal(inner, 'outer', 'the nested transaction sees the outer one\'s writes')
      sameIds(await adapter.findMany({ model: 'user' }), ['inner', 'outer'], 'users after commit')
    },
  },
  {
    name: 'a nested transaction rolls back with the outer one',
    requires: ['transactions'],
    async body({ adapter }) {
      await rejects(
        adapter.transaction(async (tx) => {
          await tx.transaction(async (nested) => {
            await nested.create({ model: 'user', data: userRow('inner') })
          })
          await tx.create({ model: 'user', data: userRow('outer') })
          throw new Marker('abort')
        }),
        'outer transaction() that throws',
      )
      equal(await adapter.count({ model: 'user' }), 0, 'users after rollback')
    },
  },
  {
    name: 'uncommitted writes are not visible outside the transaction',
    requires: ['transactions'],
    async body({ adapter }) {
      let outside: Promise<Row | null> | undefined
      await rejects(
        adapter.transaction(async (tx) => {
          await tx.create({ model: 'user', data: userRow('ada') })
          // Not awaited here: a backend with one connection may make it wait for the transaction to end.
          outside = adapter.findOne({ model: 'user', where: byId('ada') })
          await pause(20)
          throw new Marker('abort')
        }),
        'transaction() that throws',
      )
      equal(await outside, null, 'a read outside the transaction')
    },
  },
  {
    name: '20 concurrent consume calls on one row: exactly one gets it',
    async body({ adapter }) {
      await adapter.create({ model: 'verification', data: verificationRow('v-1', 'reset:ada') })
      await adapter.create({ model: 'verification', data: verificationRow('v-2', 'reset:bob') })
      const results = await Promise.all(Array.from({ length: 20 }, () => adapter.consume({ model: 'verification', where: identifier('reset:ada') })))
      const winners = results.filter((row) => row !== null)
      equal(winners.length, 1, 'callers that got the row')
      equal(results.filter((row) => row === null).length, 19, 'callers that got null')
      rowEqual(winners[0], verificationRow('v-1', 'reset:ada'), 'the consumed row')
      equal(await adapter.findOne({ model: 'verification', where: byId('v-1') }), null, 'the consumed row is gone')
      equal(await adapter.count({ model: 'verification' }), 1, 'the other row is kept')
    },
  },
  {
    name: 'concurrent consumers of several matching rows each get a different row',
    async body({ adapter }) {
      for (const id of ['v-1', 'v-2', 'v-3']) await adapter.create({ model: 'verification', data: verificationRow(id, 'otp:ada') })
      await adapter.create({ model: 'verification', data: verificationRow('v-other', 'otp:bob') })
      const results = await Promise.all(Array.from({ length: 8 }, () => adapter.consume({ model: 'verification', where: identifier('otp:ada') })))
      const won = results.filter((row) => row !== null).map((row) => String(row.id))
      equal(won.sort(), ['v-1', 'v-2', 'v-3'], 'each matching row is consumed exactly once')
      sameIds(await adapter.findMany({ model: 'verification' }), ['v-other'], 'rows left')
    },
  },
  {
    name: 'consume with no match returns null and deletes nothing',
    async body({ adapter }) {
      await adapter.create({ model: 'verification', data: verificationRow('v-1', 'reset:ada') })
      equal(await adapter.consume({ model: 'verification', where: identifier('reset:nobody') }), null, 'consume() of a missing row')
      equal(await adapter.count({ model: 'verification' }), 1, 'rows left')
    },
  },
  {
    name: 'consume inside a transaction is undone by its rollback',
    requires: ['transactions'],
    async body({ adapter }) {
      await adapter.create({ model: 'verification', data: verificationRow('v-1', 'reset:ada') })
      await rejects(
        adapter.transaction(async (tx) => {
          const row = await tx.consume({ model: 'verification', where: identifier('reset:ada') })
          equal(row?.id, 'v-1', 'consume() inside the transaction')
          throw new Marker('abort')
        }),
        'transaction() that throws',
      )
      rowEqual(await adapter.findOne({ model: 'verification', where: byId('v-1') }), verificationRow('v-1', 'reset:ada'), 'the row is back')
    },
  },
  {
    name: 'lock returns the first matching row by id, or null',
    async body({ adapter }) {
      for (const id of ['u-2', 'u-1', 'u-3']) await adapter.create({ model: 'user', data: userRow(id, { name: 'Same' }) })
      const locked = await adapter.transaction((tx) => tx.lock({ model: 'user', where: { field: 'name', value: 'Same' } }))
      rowEqual(locked, userRow('u-1', { name: 'Same' }), 'lock() inside a transaction')
      equal(await adapter.lock({ model: 'user', where: byId('nobody') }), null, 'lock() of a missing row')
      rowEqual(await adapter.lock({ model: 'user', where: byId('u-3') }), userRow('u-3', { name: 'Same' }), 'lock() outside a transaction')
    },
  },
  {
    name: '10 concurrent lock-count-insert transactions under a limit of 3 leave exactly 3 rows',
    requires: ['transactions'],
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('owner') })
      const byOwner = { field: 'ownerId', value: 'owner' } as const
      const attempts = Array.from({ length: 10 }, (_, index) =>
        adapter.transaction(async (tx) => {
          await tx.lock({ model: 'user', where: byId('owner') })
          const taken = await tx.count({ model: ITEM, where: byOwner })
          // Widens the window between the check and the insert, as a slow hook or network would.
          await pause(5)
          if (taken >= 3) return false
          await tx.create({ model: ITEM, data: itemRow(`i-${index}`, { ownerId: 'owner' }) })
          return true
        }),
      )
      const added = (await Promise.all(attempts)).filter(Boolean).length
      equal(added, 3, 'transactions that found room')
      equal(await adapter.count({ model: ITEM, where: byOwner }), 3, 'rows under the limit')
    },
  },
  {
    name: 'migrating again keeps existing rows',
    requires: ['migrations'],
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('ada') })
      const dryRun = await adapter.migrate?.({ dryRun: true })
      equal(dryRun?.applied, false, 'migrate({ dryRun: true }).applied')
      await adapter.migrate?.()
      rowEqual(await adapter.findOne({ model: 'user', where: byId('ada') }), userRow('ada'), 'the row after a second migrate()')
    },
  },
]
