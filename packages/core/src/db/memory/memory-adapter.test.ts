import { describe, expect, it } from 'vitest'
import { conformanceSchema, namedConformanceSchema, runAdapterConformance } from '../../testing/index.js'
import { DatabaseError, type Adapter } from '../adapter.js'
import { mergeSchemas, type Schema } from '../schema.js'
import { memoryAdapter } from './index.js'

runAdapterConformance({
  name: 'memory',
  createAdapter: (schema) => memoryAdapter()({ schema }),
})

// Rows are kept by model and field, so mapped names must change nothing (docs/adapters.md#naming-tables-and-columns).
runAdapterConformance({
  name: 'memory (named)',
  schema: namedConformanceSchema,
  createAdapter: (schema) => memoryAdapter()({ schema }),
})

const schema: Schema = mergeSchemas(conformanceSchema, {
  team: {
    fields: {
      name: { type: 'string' },
      plan: { type: 'string', defaultValue: 'free' },
      seats: { type: 'number', defaultValue: () => 3 },
      ownerEmail: { type: 'string', required: false, references: { model: 'user', field: 'email' } },
    },
  },
  member: {
    fields: {
      teamId: { type: 'string', references: { model: 'team', field: 'id', onDelete: 'restrict' } },
      note: { type: 'json', required: false },
    },
  },
  badge: {
    fields: {
      teamId: { type: 'string', references: { model: 'team', field: 'id', onDelete: 'set null' } },
    },
  },
})

const at = new Date('2026-01-01T00:00:00.000Z')
const user = (id: string) => ({ id, name: id, email: `${id}@example.com`, emailVerified: false, image: null, createdAt: at, updatedAt: at })

async function open(): Promise<Adapter> {
  return memoryAdapter()({ schema })
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  return error instanceof DatabaseError ? error.code : `not a DatabaseError: ${String(error)}`
}

describe('memoryAdapter', () => {
  it('declares transactions and no migrations', async () => {
    const adapter = await open()
    expect(adapter.id).toBe('memory')
    expect(adapter.capabilities).toEqual({ transactions: true, migrations: false })
    expect(adapter.schema).toBe(schema)
  })

  it('gives each factory call its own empty database', async () => {
    const factory = memoryAdapter()
    const first = await factory({ schema })
    const second = await factory({ schema })
    await first.create({ model: 'user', data: user('ada') })
    expect(await second.count({ model: 'user' })).toBe(0)
  })

  it('applies constant and function defaults for omitted fields', async () => {
    const adapter = await open()
    expect(await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })).toEqual({ id: 't1', name: 'A', plan: 'free', seats: 3, ownerEmail: null })
    expect(await adapter.create({ model: 'team', data: { id: 't2', name: 'B', plan: 'pro', seats: 10 } })).toMatchObject({ plan: 'pro', seats: 10 })
  })

  it('refuses values of the wrong type instead of storing them', async () => {
    const adapter = await open()
    await expect(adapter.create({ model: 'user', data: { ...user('ada'), createdAt: '2026-01-01' } })).rejects.toThrow(/user.createdAt is a date field and cannot store the string "2026-01-01"/)
    await expect(adapter.create({ model: 'user', data: { ...user('ada'), emailVerified: 1 } })).rejects.toThrow(/user.emailVerified is a boolean field/)
    await expect(adapter.create({ model: 'rateLimit', data: { id: 'r', key: 'k', count: 1, lastRequest: 1.5 } })).rejects.toThrow(/bigint number field/)
    await expect(adapter.create({ model: 'user', data: { ...user('ada'), createdAt: new Date('nope') } })).rejects.toThrow(/an invalid Date/)
    await expect(adapter.create({ model: 'user', data: { ...user('ada'), id: 7 } })).rejects.toThrow(/user.id must be a non-empty string/)
    expect(await adapter.count({ model: 'user' })).toBe(0)
  })

  it('stores JSON as a backend would return it', async () => {
    const adapter = await open()
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })
    const member = await adapter.create({ model: 'member', data: { id: 'm1', teamId: 't1', note: { when: at, skip: undefined, list: [1] } } })
    expect(member.note).toEqual({ when: '2026-01-01T00:00:00.000Z', list: [1] })
  })

  it('requires an id, refuses to change one, and rejects unknown models', async () => {
    const adapter = await open()
    expect(await codeOf(adapter.create({ model: 'team', data: { name: 'A' } }))).toBe('NOT_NULL_VIOLATION')
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })
    await expect(adapter.update({ model: 'team', where: { field: 'id', value: 't1' }, update: { id: 't2' } })).rejects.toThrow(/team.id cannot be updated/)
    await expect(adapter.findMany({ model: 'nope' })).rejects.toThrow(/Unknown model "nope"/)
    await expect(adapter.create({ model: 'nope', data: { id: 'x' } })).rejects.toThrow(/Unknown model "nope"/)
  })

  it('rejects sorting by an unknown field and bad paging values', async () => {
    const adapter = await open()
    await expect(adapter.findMany({ model: 'user', sortBy: { field: 'nope', direction: 'asc' } })).rejects.toThrow(/unknown field "nope"/)
    await expect(adapter.findMany({ model: 'user', limit: -1 })).rejects.toThrow(/limit must be a non-negative integer/)
    await expect(adapter.findMany({ model: 'user', offset: 1.5 })).rejects.toThrow(/offset must be a non-negative integer/)
  })

  it('enforces onDelete restrict and leaves everything in place', async () => {
    const adapter = await open()
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })
    await adapter.create({ model: 'member', data: { id: 'm1', teamId: 't1' } })
    await adapter.create({ model: 'badge', data: { id: 'b1', teamId: 't1' } })
    expect(await codeOf(adapter.delete({ model: 'team', where: { field: 'id', value: 't1' } }))).toBe('FOREIGN_KEY_VIOLATION')
    expect(await adapter.count({ model: 'team' })).toBe(1)
    expect(await adapter.findOne({ model: 'badge', where: { field: 'id', value: 'b1' } })).toMatchObject({ teamId: 't1' })
  })

  it('refuses set null on a required reference', async () => {
    const adapter = await open()
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })
    await adapter.create({ model: 'badge', data: { id: 'b1', teamId: 't1' } })
    expect(await codeOf(adapter.deleteMany({ model: 'team', where: { field: 'id', value: 't1' } }))).toBe('NOT_NULL_VIOLATION')
    expect(await adapter.count({ model: 'team' })).toBe(1)
  })

  it('checks references to non-id fields on write and on change of the referenced value', async () => {
    const adapter = await open()
    await adapter.create({ model: 'user', data: user('ada') })
    expect(await codeOf(adapter.create({ model: 'team', data: { id: 't0', name: 'A', ownerEmail: 'nobody@example.com' } }))).toBe('FOREIGN_KEY_VIOLATION')
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A', ownerEmail: 'ada@example.com' } })
    const rename = adapter.update({ model: 'user', where: { field: 'id', value: 'ada' }, update: { email: 'ada@new.example' } })
    expect(await codeOf(rename)).toBe('FOREIGN_KEY_VIOLATION')
    expect(await adapter.update({ model: 'user', where: { field: 'id', value: 'ada' }, update: { name: 'Ada' } })).toMatchObject({ email: 'ada@example.com' })
  })

  it('cascades transitively and reports only the directly deleted rows', async () => {
    const adapter = await open()
    await adapter.create({ model: 'user', data: user('ada') })
    await adapter.create({ model: 'session', data: { id: 's1', userId: 'ada', token: 't', expiresAt: at, createdAt: at, updatedAt: at } })
    expect(await adapter.deleteMany({ model: 'user', where: [] })).toBe(1)
    expect(await adapter.count({ model: 'session' })).toBe(0)
  })

  it('serialises concurrent transactions so read-modify-write cycles never interleave', async () => {
    const adapter = await open()
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A', seats: 0 } })
    const increment = () =>
      adapter.transaction(async (tx) => {
        const team = await tx.findOne<{ id: string; seats: number }>({ model: 'team', where: { field: 'id', value: 't1' } })
        await new Promise((resolve) => setTimeout(resolve, 5))
        await tx.update({ model: 'team', where: { field: 'id', value: 't1' }, update: { seats: (team?.seats ?? 0) + 1 } })
      })
    await Promise.all(Array.from({ length: 10 }, increment))
    expect(await adapter.findOne({ model: 'team', where: { field: 'id', value: 't1' } })).toMatchObject({ seats: 10 })
  })

  it('lets reads outside a transaction see committed rows only, and queues writes behind it', async () => {
    const adapter = await open()
    const order: string[] = []
    let release = (): void => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const transaction = adapter.transaction(async (tx) => {
      await tx.create({ model: 'team', data: { id: 't1', name: 'inside' } })
      await gate
      order.push('commit')
    })
    const outsideWrite = adapter.create({ model: 'team', data: { id: 't2', name: 'outside' } }).then(() => order.push('outside write'))
    expect(await adapter.count({ model: 'team' })).toBe(0)
    release()
    await Promise.all([transaction, outsideWrite])
    expect(order).toEqual(['commit', 'outside write'])
    expect(await adapter.count({ model: 'team' })).toBe(2)
  })

  it('refuses to use a transaction adapter after its transaction ended', async () => {
    const adapter = await open()
    let leaked: Adapter | undefined
    await adapter.transaction(async (tx) => {
      leaked = tx
    })
    await expect(leaked?.create({ model: 'team', data: { id: 't1', name: 'late' } })).rejects.toThrow(/already finished/)
    await expect(leaked?.findMany({ model: 'team' })).rejects.toThrow(/already finished/)
    expect(await adapter.count({ model: 'team' })).toBe(0)
  })

  it('keeps the transaction going after a caught failed write, without its partial effects', async () => {
    const adapter = await open()
    await adapter.create({ model: 'team', data: { id: 't1', name: 'A' } })
    await adapter.transaction(async (tx) => {
      await tx.create({ model: 'team', data: { id: 't2', name: 'B' } })
      await tx.create({ model: 'member', data: { id: 'm1', teamId: 't2' } })
      // deleteMany removes t1 first, then hits t2's restricting member: the whole statement must undo.
      expect(await codeOf(tx.deleteMany({ model: 'team', where: [] }))).toBe('FOREIGN_KEY_VIOLATION')
      expect(await tx.count({ model: 'team' })).toBe(2)
    })
    expect(await adapter.count({ model: 'team' })).toBe(2)
    expect(await adapter.count({ model: 'member' })).toBe(1)
  })

  it('inserts initialData through the same constraint checks', async () => {
    const seeded = await memoryAdapter({ initialData: { user: [user('ada')] } })({ schema })
    expect(await seeded.findOne({ model: 'user', where: { field: 'email', value: 'ada@example.com' } })).toMatchObject({ id: 'ada' })
    expect(() => memoryAdapter({ initialData: { user: [user('ada'), user('ada')] } })({ schema })).toThrow(DatabaseError)
  })

  it('refuses a hand-written schema whose composite unique constraint names a missing field', () => {
    const misspelt: Schema = { pair: { fields: { left: { type: 'string' }, right: { type: 'string' } }, unique: [['left', 'rigth']] } }
    expect(() => memoryAdapter()({ schema: misspelt })).toThrow('names "pair.rigth", which does not exist')
  })

  it('checks composite unique constraints on the rows an update writes, and on initialData', async () => {
    const pairs: Schema = { pair: { fields: { left: { type: 'string' }, right: { type: 'number', required: false } }, unique: [['left', 'right']] } }
    const adapter = await memoryAdapter({ initialData: { pair: [{ id: 'p1', left: 'a', right: 1 }, { id: 'p2', left: 'a', right: 2 }] } })({ schema: pairs })
    expect(await codeOf(adapter.update({ model: 'pair', where: { field: 'id', value: 'p2' }, update: { right: 1 } }))).toBe('UNIQUE_VIOLATION')
    expect(await adapter.findOne({ model: 'pair', where: { field: 'id', value: 'p2' } })).toEqual({ id: 'p2', left: 'a', right: 2 })
    expect(() => memoryAdapter({ initialData: { pair: [{ id: 'p1', left: 'a', right: 1 }, { id: 'p2', left: 'a', right: 1 }] } })({ schema: pairs })).toThrow(
      '(pair.left, pair.right) must be unique together',
    )
  })
})
