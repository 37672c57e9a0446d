import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.package.js'

export default defineConfig(
  packageBuild(
    {
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
    [],
  ),
)
