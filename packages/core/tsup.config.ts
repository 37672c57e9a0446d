import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'adapters/memory': 'src/db/memory/index.ts',
    'adapters/kysely': 'src/db/kysely/index.ts',
    'adapters/sqlite': 'src/db/kysely/sqlite.ts',
    'adapters/postgres': 'src/db/kysely/postgres.ts',
    'adapters/mysql': 'src/db/kysely/mysql.ts',
    'storage/redis': 'src/storage/redis.ts',
    testing: 'src/testing/index.ts',
    node: 'src/integrations/node.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
})
