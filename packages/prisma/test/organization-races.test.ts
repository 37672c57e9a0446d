/**
 * The organization plugin's race cases (packages/organization/test/race-cases.ts:
 * twenty concurrent accepts of one invitation, the membership, invitation,
 * team and role limits, the last owner) on the Prisma adapter. On
 * PostgreSQL and MariaDB parallel requests run on pooled connections and
 * really interleave, so `lock` must lock.
 */
import { organizationRaces } from '../../organization/test/race-cases.js'
import { createPrismaAdapter } from '../src/index.js'
import { createPrismaBackend, dialects, type PrismaBackend } from './databases.js'

for (const { dialect, enabled } of dialects) {
  organizationRaces({
    name: `prisma ${dialect}`,
    enabled,
    migrates: false,
    async open() {
      let backend: PrismaBackend | undefined
      return {
        // The tables are made for the schema the auth merges, once it asks for its adapter.
        factory: async ({ schema }) => {
          backend = await createPrismaBackend(dialect, 'default', schema)
          return createPrismaAdapter(backend.prisma, { provider: backend.provider }, schema)
        },
        drop: async () => backend?.drop(),
      }
    },
  })
}
