/**
 * The organization plugin's race cases (packages/organization/test/race-cases.ts:
 * twenty concurrent accepts of one invitation, the membership, invitation,
 * team and role limits, the last owner) on the Drizzle adapter, over a
 * database drizzle-kit migrated from the module generated for the plugin's
 * schema. On PostgreSQL and MariaDB parallel requests run on pooled
 * connections and really interleave, so `lock` must lock.
 */
import { organizationRaces } from '../../organization/test/race-cases.js'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, dialects, type DrizzleBackend } from './databases.js'

for (const { dialect, enabled } of dialects) {
  organizationRaces({
    name: `drizzle ${dialect}`,
    enabled,
    migrates: false,
    async open() {
      let backend: DrizzleBackend | undefined
      return {
        // The tables are made for the schema the auth merges, once it asks for its adapter.
        factory: async ({ schema }) => {
          backend = await createDrizzleBackend(dialect, schema)
          return createDrizzleAdapter(backend.db, { provider: backend.provider, schema: backend.tables }, schema)
        },
        drop: async () => backend?.drop(),
      }
    },
  })
}
