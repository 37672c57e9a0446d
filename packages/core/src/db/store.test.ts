import { describe, expect, it } from 'vitest'
import { manualClock } from '../crypto/clock.js'
import { AuthError } from '../errors/catalogue.js'
import { createLogger } from '../logging/logger.js'
import { memoryAdapter } from './memory/index.js'
import { coreSchema } from './schema.js'
import { createStore, type DatabaseHooks } from './store.js'

async function setup(hooks: DatabaseHooks[] = []) {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'))
  const adapter = await memoryAdapter()({ schema: coreSchema })
  let next = 0
  const store = createStore({
    adapter,
    schema: coreSchema,
    clock,
    generateId: (model) => `${model}-${++next}`,
    hooks,
    logger: createLogger({ disabled: true }),
  })
  return { store, adapter, clock }
}

describe('store', () => {
  it('fills id, defaults, null optionals and timestamps from the clock; lowercases the email', async () => {
    const { store } = await setup()
    const user = await store.create({ model: 'user', data: { name: 'Ada', email: 'Ada@Example.COM' } })
    expect(user).toEqual({
      id: 'user-1',
      name: 'Ada',
      email: 'ada@example.com',
      emailVerified: false,
      image: null,
      createdAt: new Date('2026-03-01T10:00:00.000Z'),
      updatedAt: new Date('2026-03-01T10:00:00.000Z'),
      credentialVersion: null,
    })
  })

  it('findOne and findMany pass join through to the adapter', async () => {
    const { store } = await setup()
    const user = await store.create({ model: 'user', data: { name: 'Ada', email: 'ada@example.com' } })
    const session = await store.create({ model: 'session', data: { userId: user.id, token: 'hash', expiresAt: new Date('2026-03-08T10:00:00.000Z') } })
    const join = { user: { model: 'user', on: { field: 'userId', references: 'id' } } } as const
    expect(await store.findOne({ model: 'session', where: { field: 'token', value: 'hash' }, join })).toEqual({ ...session, user })
    expect(await store.findMany({ model: 'session', join })).toEqual([{ ...session, user }])
  })

  it('update sets updatedAt and lowercases', async () => {
    const { store, clock } = await setup()
    await store.create({ model: 'user', data: { name: 'Ada', email: 'ada@example.com' } })
    clock.advance(5000)
    const updated = await store.update({
      model: 'user',
      where: { field: 'id', value: 'user-1' },
      update: { email: 'ADA@NEW.TEST' },
    })
    expect(updated?.email).toBe('ada@new.test')
    expect(updated?.updatedAt).toEqual(new Date('2026-03-01T10:00:05.000Z'))
    expect(updated?.createdAt).toEqual(new Date('2026-03-01T10:00:00.000Z'))
  })

  it('delete hooks see the row; a before-hook veto keeps it; after-hooks run after the commit', async () => {
    const seen: string[] = []
    const { store, adapter } = await setup([
      {
        user: {
          delete: {
            before: (row) => {
              if (row.name === 'Keep') throw new AuthError({ code: 'LOCKED', status: 403, message: 'Locked' })
              seen.push(`before:${String(row.name)}`)
            },
            after: (row) => {
              seen.push(`after:${String(row.name)}`)
            },
          },
        },
      },
    ])
    await store.create({ model: 'user', data: { name: 'Keep', email: 'keep@example.com' } })
    await store.create({ model: 'user', data: { name: 'Go', email: 'go@example.com' } })
    await expect(store.delete({ model: 'user', where: { field: 'email', value: 'keep@example.com' } })).rejects.toMatchObject({
      code: 'LOCKED',
    })
    expect(await adapter.count({ model: 'user' })).toBe(2)
    await store.delete({ model: 'user', where: { field: 'email', value: 'go@example.com' } })
    expect(seen).toEqual(['before:Go', 'after:Go'])
    expect(await adapter.count({ model: 'user' })).toBe(1)
  })

  it('deleteMany with hooks is all or nothing: one veto keeps every row', async () => {
    const { store, adapter } = await setup([
      {
        user: {
          delete: {
            before: (row) => {
              if (row.name === 'Keep') throw new AuthError({ code: 'LOCKED', status: 403, message: 'Locked' })
            },
          },
        },
      },
    ])
    await store.create({ model: 'user', data: { name: 'Go', email: 'a@example.com' } })
    await store.create({ model: 'user', data: { name: 'Keep', email: 'b@example.com' } })
    await expect(store.deleteMany({ model: 'user', where: { field: 'name', operator: 'ne', value: 'x' } })).rejects.toThrow()
    expect(await adapter.count({ model: 'user' })).toBe(2)
  })

  it('a failing after-hook is logged, not thrown: the write stands', async () => {
    const { store, adapter } = await setup([
      {
        user: {
          create: {
            after: () => {
              throw new Error('mailer down')
            },
          },
        },
      },
    ])
    await expect(store.create({ model: 'user', data: { name: 'Ada', email: 'ada@example.com' } })).resolves.toMatchObject({
      name: 'Ada',
    })
    expect(await adapter.count({ model: 'user' })).toBe(1)
  })
})
