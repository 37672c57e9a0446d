/**
 * URLs of the services the database and storage suites run against; a suite
 * whose service is not configured is skipped (vitest.services.ts says why).
 */
export const services = {
  postgres: process.env.GATEHOUSE_TEST_POSTGRES_URL,
  mysql: process.env.GATEHOUSE_TEST_MYSQL_URL,
  redis: process.env.GATEHOUSE_TEST_REDIS_URL,
} as const
