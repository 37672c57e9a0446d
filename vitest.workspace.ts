import { defineWorkspace } from 'vitest/config'

/**
 * One project per package. Packages import each other from source through
 * the `@gatehouse/source` export condition, so tests never need a build.
 * Suites that need PostgreSQL, MariaDB or Redis read their URLs from
 * GATEHOUSE_TEST_POSTGRES_URL, GATEHOUSE_TEST_MYSQL_URL and
 * GATEHOUSE_TEST_REDIS_URL and are skipped, with the reason printed, without them.
 */
export default defineWorkspace([
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'core',
      root: './packages/core',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      globalSetup: ['../../vitest.services.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'organization',
      root: './packages/organization',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      globalSetup: ['../../vitest.services.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'example-server',
      root: './examples/server',
      include: ['test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'docs',
      root: './scripts/docs',
      include: ['*.test.ts'],
    },
  },
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'billing',
      root: './packages/billing',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      globalSetup: ['../../vitest.services.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name: 'react',
      root: './packages/react',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'jsdom',
      globalSetup: ['../../vitest.services.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      name: 'e2e',
      root: './examples/e2e',
      include: ['test/**/*.test.ts'],
      testTimeout: 120_000,
      hookTimeout: 60_000,
    },
  },
])
