import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../../test/kysely-backends.js'
import { DatabaseError, type Adapter } from '../adapter.js'
import { coreSchema, type Schema } from '../schema.js'
import { introspect } from './introspect.js'
import { orderModels } from './migrate.js'
import { objectName } from './plan-indexes.js'

const base: Schema = {
  owner: {
    tableName: 'gh_owner',
    fields: {
      name: { type: 'string' },
      email: { type: 'string', unique: true },
    },
  },
  pet: {
    fields: {
      ownerId: { type: 'string', columnName: 'owner_id', index: true, references: { model: 'owner', field: 'id', onDelete: 'cascade' } },
      born: { type: 'date', required: false },
    },
  },
}

function extend(schema: Schema, model: string, fields: Schema[string]['fields']): Schema {
  const current = schema[model]
  return { ...schema, [model]: { ...current, fields: { ...current?.fields, ...fields } } }
}

const owner = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `Owner ${id}`, email: `${id}@example.com`, ...extra })

describe('orderModels', () => {
  it('puts referenced models before the models that reference them', () => {
    const reversed: Schema = { pet: base.pet ?? { fields: {} }, owner: base.owner ?? { fields: {} } }
    expect(orderModels(reversed)).toEqual(['owner', 'pet'])
  })
})

describe('objectName', () => {
  it('is <table>_<column>_<kind> when that fits in 63 characters', () => {
    expect(objectName('session', 'userId', 'idx')).toBe('session_userId_idx')
  })

  it('shortens longer names to 63 characters with a stable hash that tells them apart', () => {
    const table = 'organization_invitation_with_a_long_name'
    const first = objectName(table, 'invitedByMemberIdentifier', 'idx')
    const second = objectName(table, 'invitedByMemberIdentifierTwo', 'idx')
    expect(first).toHaveLength(63)
    expect(first.startsWith('organization_invitation_with_a_long_name_invitedByMemb')).toBe(true)
    expect(first).toMatch(/_[0-9a-f]{8}$/)
    expect(objectName(table, 'invitedByMemberIdentifier', 'idx')).toBe(first)
    expect(second).not.toBe(first)
  })

  it('joins the columns of a composite index in order, and shortens it the same way', () => {
    expect(objectName('account', ['providerId', 'accountId'], 'uniq')).toBe('account_providerId_accountId_uniq')
    expect(objectName('account', ['accountId', 'providerId'], 'uniq')).toBe('account_accountId_providerId_uniq')
    const long = objectName('organization_invitation', ['organizationIdentifier', 'invitedEmailAddress'], 'uniq')
    expect(long).toHaveLength(63)
    expect(long.startsWith('organization_invitation_organizationIdentifier_invited')).toBe(true)
    expect(long).toMatch(/_[0-9a-f]{8}$/)
    expect(objectName('organization_invitation', ['organizationIdentifier', 'invitedEmailAddress'], 'uniq')).toBe(long)
  })
})

/** A model with plain string columns, TEXT on MySQL until something indexes them. */
const tagSchema: Schema = {
  tag: {
    fields: {
      scope: { type: 'string' },
      label: { type: 'string', columnName: 'tag_label' },
      note: { type: 'string', required: false, defaultValue: 'none' },
    },
  },
}

const withUnique = (schema: Schema, model: string, unique: readonly (readonly string[])[]): Schema => {
  const current = schema[model]
  if (!current) throw new Error(`no model ${model}`)
  return { ...schema, [model]: { ...current, unique } }
}

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`migrate (${dialect})`, () => {
    let backend: TestBackend
    const opened: Adapter[] = []
    const open = async (schema: Schema): Promise<Adapter> => {
      const adapter = await backend.factory({ schema })
      opened.push(adapter)
      return adapter
    }
    const state = () => introspect(backend.db, dialect)

    beforeEach(async () => {
      backend = await createTestBackend(dialect)
    })
    afterEach(async () => {
      for (const adapter of opened.splice(0)) await adapter.close?.()
      await backend.drop()
    })

    it('a dry run returns the statements and executes none of them', async () => {
      const adapter = await open(base)
      const result = await adapter.migrate?.({ dryRun: true })
      expect(result?.applied).toBe(false)
      expect(result?.statements).toHaveLength(4)
      expect(result?.statements[0]).toMatch(/^create table .gh_owner./)
      expect(result?.statements[1]).toMatch(/^create unique index .gh_owner_email_uniq. on .gh_owner. \(.email.\)$/)
      expect(result?.statements[2]).toMatch(/^create table .pet./)
      expect(result?.statements[3]).toMatch(/^create index .pet_owner_id_idx. on .pet. \(.owner_id.\)$/)
      const after = await state()
      expect(after.tables.has('gh_owner')).toBe(false)
      expect(after.tables.has('pet')).toBe(false)
      // A dry run does not change what a real run would do.
      expect((await adapter.migrate?.({ dryRun: true }))?.statements).toEqual(result?.statements)
    })

    it('creates tables, columns and indexes, and a second run has no statements', async () => {
      const adapter = await open(base)
      const first = await adapter.migrate?.()
      expect(first?.applied).toBe(true)
      expect(first?.statements).toHaveLength(4)
      const after = await state()
      expect([...(after.tables.get('gh_owner') ?? [])].sort()).toEqual(['email', 'id', 'name'])
      expect([...(after.tables.get('pet') ?? [])].sort()).toEqual(['born', 'id', 'owner_id'])
      expect(after.indexes).toContainEqual({ table: 'gh_owner', name: 'gh_owner_email_uniq', unique: true, columns: ['email'] })
      expect(after.indexes).toContainEqual({ table: 'pet', name: 'pet_owner_id_idx', unique: false, columns: ['owner_id'] })

      const second = await adapter.migrate?.()
      expect(second?.statements).toEqual([])
      expect((await adapter.migrate?.({ dryRun: true }))?.statements).toEqual([])
    })

    it('adding a field adds exactly that column and its index, keeping the rows', async () => {
      await (await open(base)).migrate?.()
      await (await open(base)).create({ model: 'owner', data: owner('o1') })
      const next = extend(base, 'owner', { nickname: { type: 'string', required: false, index: true } })
      const adapter = await open(next)
      const plan = await adapter.migrate?.({ dryRun: true })
      expect(plan?.statements).toHaveLength(2)
      expect(plan?.statements[0]).toMatch(/^alter table .gh_owner. add column .nickname. /)
      expect(plan?.statements[1]).toMatch(/^create index .gh_owner_nickname_idx. on .gh_owner. \(.nickname.\)$/)
      expect((await adapter.migrate?.())?.statements).toEqual(plan?.statements)

      const after = await state()
      expect(after.tables.get('gh_owner')?.has('nickname')).toBe(true)
      expect(after.indexes).toContainEqual({ table: 'gh_owner', name: 'gh_owner_nickname_idx', unique: false, columns: ['nickname'] })
      expect(await adapter.findOne({ model: 'owner', where: { field: 'id', value: 'o1' } })).toEqual({ ...owner('o1'), nickname: null })
      expect((await adapter.migrate?.())?.statements).toEqual([])
    })

    it('a required field added later is nullable, unless it has a constant default that fills old rows', async () => {
      await (await open(base)).migrate?.()
      await (await open(base)).create({ model: 'owner', data: owner('old') })
      const next = extend(base, 'owner', {
        plan: { type: 'string' },
        credits: { type: 'number', defaultValue: 5 },
        verified: { type: 'boolean', defaultValue: false },
        tier: { type: 'string', defaultValue: 'free' },
      })
      const adapter = await open(next)
      await adapter.migrate?.()
      expect(await adapter.findOne({ model: 'owner', where: { field: 'id', value: 'old' } })).toEqual({
        ...owner('old'),
        plan: null,
        credits: 5,
        verified: false,
        tier: 'free',
      })
      // plan has no default, so it went in nullable: a row without it is accepted.
      await adapter.create({ model: 'owner', data: owner('new', { credits: 1, verified: true, tier: 'pro' }) })
      // credits has a default, so it is NOT NULL.
      const error = await adapter.create({ model: 'owner', data: owner('bad', { credits: null }) }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DatabaseError)
      expect(error).toMatchObject({ code: 'NOT_NULL_VIOLATION' })
      expect((await adapter.migrate?.())?.statements).toEqual([])
    })

    it('adds foreign keys for a new table and for a referencing column added to an existing one', async () => {
      await (await open(base)).migrate?.()
      let next = extend(base, 'pet', {
        sitterId: { type: 'string', required: false, references: { model: 'owner', field: 'id', onDelete: 'set null' } },
      })
      next = { ...next, toy: { fields: { petId: { type: 'string', references: { model: 'pet', field: 'id', onDelete: 'cascade' } } } } }
      const adapter = await open(next)
      await adapter.migrate?.()
      expect((await adapter.migrate?.())?.statements).toEqual([])

      await adapter.create({ model: 'owner', data: owner('ann') })
      await adapter.create({ model: 'owner', data: owner('sam') })
      await adapter.create({ model: 'pet', data: { id: 'rex', ownerId: 'ann', born: null, sitterId: 'sam' } })
      await adapter.create({ model: 'toy', data: { id: 'ball', petId: 'rex' } })
      const dangling = await adapter
        .create({ model: 'pet', data: { id: 'fido', ownerId: 'ann', born: null, sitterId: 'nobody' } })
        .catch((caught: unknown) => caught)
      expect(dangling).toMatchObject({ code: 'FOREIGN_KEY_VIOLATION' })

      await adapter.delete({ model: 'owner', where: { field: 'id', value: 'sam' } })
      expect(await adapter.findOne({ model: 'pet', where: { field: 'id', value: 'rex' } })).toMatchObject({ sitterId: null })
      await adapter.delete({ model: 'pet', where: { field: 'id', value: 'rex' } })
      expect(await adapter.count({ model: 'toy' })).toBe(0)
    })

    it('an index that already covers the column under another name is not created again', async () => {
      const adapter = await open(base)
      await adapter.migrate?.()
      // Created first: MySQL refuses to drop the only index its foreign key can use.
      await sql`create index ${sql.id('hand_made')} on ${sql.id('pet')} (${sql.id('owner_id')}, ${sql.id('born')})`.execute(backend.db)
      await sql`drop index ${sql.id('pet_owner_id_idx')}${dialect === 'mysql' ? sql` on ${sql.id('pet')}` : sql``}`.execute(backend.db)
      expect((await adapter.migrate?.({ dryRun: true }))?.statements).toEqual([])
    })

    it('handles table and column names too long for a plain index name', async () => {
      const long: Schema = {
        record: {
          tableName: 'gatehouse_a_rather_long_table_name_for_limits',
          fields: {
            anEquallyLongColumnNameForTheIndex: { type: 'string', index: true },
            anotherEquallyLongUniqueColumnName: { type: 'string', unique: true, references: { model: 'record', field: 'id' } },
          },
        },
      }
      const adapter = await open(long)
      expect((await adapter.migrate?.())?.statements).toHaveLength(3)
      expect((await adapter.migrate?.())?.statements).toEqual([])
    })

    it('creates a composite unique index with a new table, enforces it, and plans nothing afterwards', async () => {
      const schema = withUnique(tagSchema, 'tag', [['scope', 'label']])
      const adapter = await open(schema)
      const plan = await adapter.migrate?.({ dryRun: true })
      expect(plan?.statements).toHaveLength(2)
      expect(plan?.statements[0]).toMatch(/^create table .tag./)
      expect(plan?.statements[1]).toMatch(/^create unique index .tag_scope_tag_label_uniq. on .tag. \(.scope., .tag_label.\)$/)
      expect((await adapter.migrate?.())?.statements).toEqual(plan?.statements)
      expect((await state()).indexes).toContainEqual({ table: 'tag', name: 'tag_scope_tag_label_uniq', unique: true, columns: ['scope', 'tag_label'] })
      expect((await adapter.migrate?.())?.statements).toEqual([])
      if (dialect === 'mysql') {
        // Indexable VARCHARs, not TEXT: MySQL refuses TEXT in a key (MariaDB falls back to a slower hash index).
        const { rows } = await sql<{ name: string; type: string }>`
          select column_name as name, column_type as type from information_schema.columns
          where table_schema = database() and table_name = 'tag' order by ordinal_position`.execute(backend.db)
        expect(rows).toEqual([
          { name: 'id', type: 'varchar(255)' },
          { name: 'scope', type: 'varchar(255)' },
          { name: 'tag_label', type: 'varchar(255)' },
          { name: 'note', type: 'text' },
        ])
      }

      await adapter.create({ model: 'tag', data: { id: 't1', scope: 'a', label: 'x', note: 'first' } })
      await adapter.create({ model: 'tag', data: { id: 't2', scope: 'a', label: 'y', note: null } })
      const duplicate = await adapter.create({ model: 'tag', data: { id: 't3', scope: 'a', label: 'x', note: null } }).catch((caught: unknown) => caught)
      expect(duplicate).toBeInstanceOf(DatabaseError)
      expect(duplicate).toMatchObject({ code: 'UNIQUE_VIOLATION' })
      expect((await adapter.findMany({ model: 'tag', sortBy: { field: 'id', direction: 'asc' } })).map((row) => row.id)).toEqual(['t1', 't2'])
    })

    it('adding a composite unique constraint to an existing table creates only that index', async () => {
      await (await open(base)).migrate?.()
      await (await open(base)).create({ model: 'owner', data: owner('o1') })
      const adapter = await open(withUnique(base, 'pet', [['ownerId', 'born']]))
      await adapter.create({ model: 'pet', data: { id: 'p1', ownerId: 'o1', born: null } })
      await adapter.create({ model: 'pet', data: { id: 'p2', ownerId: 'o1', born: null } })
      const plan = await adapter.migrate?.({ dryRun: true })
      expect(plan?.statements).toHaveLength(1)
      expect(plan?.statements[0]).toMatch(/^create unique index .pet_owner_id_born_uniq. on .pet. \(.owner_id., .born.\)$/)
      expect((await adapter.migrate?.())?.statements).toEqual(plan?.statements)
      expect((await adapter.migrate?.())?.statements).toEqual([])

      // Two rows with a null in the tuple were there before and are still allowed after: nulls never collide.
      await adapter.create({ model: 'pet', data: { id: 'p3', ownerId: 'o1', born: null } })
      const born = new Date('2020-05-06T07:08:09.010Z')
      await adapter.create({ model: 'pet', data: { id: 'p4', ownerId: 'o1', born } })
      await expect(adapter.create({ model: 'pet', data: { id: 'p5', ownerId: 'o1', born } })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      expect(await adapter.count({ model: 'pet' })).toBe(4)
    })

    it('adding a composite unique constraint over plain string columns keeps the rows', async () => {
      await (await open(tagSchema)).migrate?.()
      const before = await open(tagSchema)
      await before.create({ model: 'tag', data: { id: 't1', scope: 'a', label: 'x', note: 'n' } })
      await before.create({ model: 'tag', data: { id: 't2', scope: 'b', label: 'x', note: null } })
      const adapter = await open(withUnique(tagSchema, 'tag', [['scope', 'label']]))
      const { statements = [] } = (await adapter.migrate?.()) ?? {}
      if (dialect === 'mysql') {
        // MySQL cannot index TEXT: both columns become VARCHAR(255) first, keeping NOT NULL.
        expect(statements).toHaveLength(3)
        expect(statements[0]).toMatch(/^alter table `tag` modify column `scope` varchar\(255\) character set utf8mb4 collate utf8mb4_bin not null$/)
        expect(statements[1]).toMatch(/^alter table `tag` modify column `tag_label` varchar\(255\) character set utf8mb4 collate utf8mb4_bin not null$/)
      } else {
        expect(statements).toHaveLength(1)
      }
      expect(statements.at(-1)).toMatch(/^create unique index .tag_scope_tag_label_uniq. on .tag. \(.scope., .tag_label.\)$/)
      expect((await adapter.migrate?.())?.statements).toEqual([])
      expect(await adapter.findMany({ model: 'tag', sortBy: { field: 'id', direction: 'asc' } })).toEqual([
        { id: 't1', scope: 'a', label: 'x', note: 'n' },
        { id: 't2', scope: 'b', label: 'x', note: null },
      ])
      await expect(adapter.create({ model: 'tag', data: { id: 't3', scope: 'b', label: 'x', note: null } })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      await expect(adapter.create({ model: 'tag', data: { id: 't3', scope: 'a', label: null, note: null } })).rejects.toMatchObject({ code: 'NOT_NULL_VIOLATION' })
    })

    it('a unique index on the same columns in the same order counts, whatever its name; other orders and non-unique ones do not', async () => {
      await (await open(tagSchema)).migrate?.()
      const schema = withUnique(tagSchema, 'tag', [['scope', 'label']])
      // Apply only the column conversion MySQL needs, so the hand-made indexes below can exist.
      if (dialect === 'mysql') {
        for (const column of ['scope', 'tag_label']) {
          await sql`alter table ${sql.id('tag')} modify column ${sql.id(column)} varchar(255) character set utf8mb4 collate utf8mb4_bin not null`.execute(backend.db)
        }
      }
      await sql`create unique index ${sql.id('reversed')} on ${sql.id('tag')} (${sql.id('tag_label')}, ${sql.id('scope')})`.execute(backend.db)
      await sql`create index ${sql.id('plain')} on ${sql.id('tag')} (${sql.id('scope')}, ${sql.id('tag_label')})`.execute(backend.db)
      const adapter = await open(schema)
      const planned = await adapter.migrate?.({ dryRun: true })
      expect(planned?.statements).toHaveLength(1)
      expect(planned?.statements[0]).toMatch(/^create unique index .tag_scope_tag_label_uniq./)

      await sql`create unique index ${sql.id('hand_made')} on ${sql.id('tag')} (${sql.id('scope')}, ${sql.id('tag_label')})`.execute(backend.db)
      expect((await adapter.migrate?.({ dryRun: true }))?.statements).toEqual([])
    })

    it("core's account table is unique on (providerId, accountId)", async () => {
      const adapter = await open(coreSchema)
      await adapter.migrate?.()
      expect((await state()).indexes).toContainEqual({
        table: 'account',
        name: 'account_providerId_accountId_uniq',
        unique: true,
        columns: ['providerId', 'accountId'],
      })
      const at = new Date('2026-01-01T00:00:00.000Z')
      await adapter.create({ model: 'user', data: { id: 'u1', name: 'U', email: 'u@example.com', emailVerified: false, image: null, createdAt: at, updatedAt: at } })
      const account = (id: string, providerId: string) => ({
        id,
        providerId,
        accountId: 'u1',
        userId: 'u1',
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        password: null,
        createdAt: at,
        updatedAt: at,
      })
      await adapter.create({ model: 'account', data: account('a1', 'credential') })
      await adapter.create({ model: 'account', data: account('a2', 'github') })
      await expect(adapter.create({ model: 'account', data: account('a3', 'credential') })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      expect(await adapter.count({ model: 'account' })).toBe(2)
    })

    if (dialect !== 'mysql') {
      it('runs in one transaction: a failing statement leaves nothing behind', async () => {
        // A table holding the unique index's name makes the second statement fail.
        await sql`create table ${sql.id('gh_owner_email_uniq')} (${sql.id('x')} integer)`.execute(backend.db)
        const adapter = await open(base)
        await expect(adapter.migrate?.()).rejects.toThrow()
        expect((await state()).tables.has('gh_owner')).toBe(false)
      })
    }

    if (dialect === 'sqlite') {
      it('emits plain SQLite DDL', async () => {
        const { statements } = (await (await open(base)).migrate?.({ dryRun: true })) ?? { statements: [] }
        expect(statements).toEqual([
          'create table "gh_owner" ("id" text not null primary key, "name" text not null, "email" text not null)',
          'create unique index "gh_owner_email_uniq" on "gh_owner" ("email")',
          'create table "pet" ("id" text not null primary key, "owner_id" text not null, "born" text, ' +
            'constraint "pet_owner_id_fk" foreign key ("owner_id") references "gh_owner" ("id") on delete cascade)',
          'create index "pet_owner_id_idx" on "pet" ("owner_id")',
        ])
      })
    }

    if (dialect === 'mysql') {
      it('creates InnoDB tables with the utf8mb4_bin collation and VARCHAR keys', async () => {
        await (await open(base)).migrate?.()
        const tables = await sql<{ name: string; engine: string; collation: string }>`
          select table_name as name, engine, table_collation as collation
          from information_schema.tables where table_schema = database() order by table_name`.execute(backend.db)
        expect(tables.rows).toEqual([
          { name: 'gh_owner', engine: 'InnoDB', collation: 'utf8mb4_bin' },
          { name: 'pet', engine: 'InnoDB', collation: 'utf8mb4_bin' },
        ])
        const columns = await sql<{ name: string; type: string; collation: string | null }>`
          select column_name as name, column_type as type, collation_name as collation
          from information_schema.columns where table_schema = database() and table_name = 'gh_owner' order by ordinal_position`.execute(
          backend.db,
        )
        expect(columns.rows).toEqual([
          { name: 'id', type: 'varchar(255)', collation: 'utf8mb4_bin' },
          { name: 'name', type: 'text', collation: 'utf8mb4_bin' },
          { name: 'email', type: 'varchar(255)', collation: 'utf8mb4_bin' },
        ])
      })
    }

    if (dialect === 'postgres') {
      it('creates tables in the schema given to the adapter, not in public', async () => {
        await (await open(base)).migrate?.()
        const { rows } = await sql<{ schema: string }>`
          select table_schema as schema from information_schema.tables where table_name = 'gh_owner'`.execute(backend.db)
        const current = await sql<{ name: string }>`select current_schema() as name`.execute(backend.db)
        expect(current.rows[0]?.name).toMatch(/^gatehouse_test_/)
        expect(rows).toEqual([{ schema: current.rows[0]?.name }])
      })
    }
  })
}
