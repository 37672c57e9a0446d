import { defineWorkspace, type TestProjectConfiguration } from 'vitest/config'

/**
 * One project per package. Packages import each other from source through
 * the `@gatehouse/source` export condition, so tests never need a build.
 * Suites that need PostgreSQL, MariaDB or Redis read their URLs from
 * GATEHOUSE_TEST_POSTGRES_URL, GATEHOUSE_TEST_MYSQL_URL and
 * GATEHOUSE_TEST_REDIS_URL and are skipped, with the reason printed, without them.
 */
type TestOptions = NonNullable<Extract<TestProjectConfiguration, { test?: unknown }>['test']>

const PACKAGE_TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts']

/** A project that reads the workspace packages from source and reports which service suites it skips. */
function project(name: string, root: string, test: TestOptions = {}): TestProjectConfiguration {
  return {
    resolve: { conditions: ['@gatehouse/source'] },
    ssr: { resolve: { conditions: ['@gatehouse/source'] } },
    test: {
      name,
      root,
      include: PACKAGE_TESTS,
      globalSetup: ['../../vitest.services.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...test,
    },
  }
}

export default defineWorkspace([
  project('core', './packages/core'),
  project('organization', './packages/organization'),
  project('billing', './packages/billing'),
  project('oidc-provider', './packages/oidc-provider'),
  project('magic-link', './packages/magic-link'),
  project('custom-session', './packages/custom-session'),
  project('admin', './packages/admin'),
  project('two-factor', './packages/two-factor'),
  project('passkey', './packages/passkey'),
  project('sso', './packages/sso'),
  project('scim', './packages/scim'),
  project('api-key', './packages/api-key'),
  project('jwt', './packages/jwt'),
  project('username', './packages/username'),
  project('email-otp', './packages/email-otp'),
  project('phone-number', './packages/phone-number'),
  project('last-login-method', './packages/last-login-method'),
  project('multi-session', './packages/multi-session'),
  project('anonymous', './packages/anonymous'),
  project('drizzle', './packages/drizzle'),
  project('prisma', './packages/prisma', { globalSetup: ['../../vitest.services.ts', './test/clients.setup.ts'] }),
  project('react', './packages/react', { environment: 'jsdom' }),
  project('example-server', './examples/server', { include: ['test/**/*.test.ts'], globalSetup: [] }),
  project('docs', './scripts/docs', { include: ['*.test.ts'], globalSetup: [] }),
  // The packed packages installed with npm in fresh folders, as users install them:
  // reads dist/ (run after `pnpm build`), never the sources.
  {
    test: {
      name: 'install',
      root: './scripts/install',
      include: ['*.test.ts'],
      globalSetup: ['./pack.setup.ts'],
      testTimeout: 600_000,
      hookTimeout: 120_000,
    },
  },
  // The browser suite runs the built server and app, as a black-box harness would: no source condition.
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
