import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../src/config.js'
import { redacted } from '../src/database.js'
import { runBuilt } from './harness.js'

describe('readConfig: deployment variables', () => {
  it('leaves every deployment setting unset by default: one process on SQLite', () => {
    expect(readConfig({})).toMatchObject({
      databaseUrl: undefined,
      redisUrl: undefined,
      redisKeyPrefix: undefined,
      cookieCacheMaxAge: undefined,
      workers: undefined,
      shutdownTimeoutMs: undefined,
    })
  })

  it('reads DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX, COOKIE_CACHE_MAX_AGE, WORKERS and SHUTDOWN_TIMEOUT', () => {
    const config = readConfig({
      DATABASE_URL: 'postgres://app:pw@db.internal:5432/auth',
      REDIS_URL: 'rediss://:pw@cache.internal:6380/2',
      REDIS_KEY_PREFIX: 'app1:',
      COOKIE_CACHE_MAX_AGE: '5',
      WORKERS: '4',
      SHUTDOWN_TIMEOUT: '30',
    })
    expect(config).toMatchObject({
      databaseUrl: 'postgres://app:pw@db.internal:5432/auth',
      redisUrl: 'rediss://:pw@cache.internal:6380/2',
      redisKeyPrefix: 'app1:',
      cookieCacheMaxAge: 5,
      workers: 4,
      shutdownTimeoutMs: 30_000,
    })
    expect(readConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/app' }).databaseUrl).toBe('mysql://root@127.0.0.1:3306/app')
    expect(readConfig({ DATABASE_URL: 'postgresql://localhost/app' }).databaseUrl).toBe('postgresql://localhost/app')
    // DATABASE_PATH still names the SQLite file when DATABASE_URL is unset.
    expect(readConfig({ DATABASE_PATH: 'x.db' }, '/srv').databasePath).toBe('/srv/x.db')
  })

  it('refuses a database or Redis URL of another kind without echoing its password', () => {
    for (const raw of ['sqlite:./data.db', 'http://db.example.com', 'mongodb://u:secret@h/db']) {
      expect(() => readConfig({ DATABASE_URL: raw }), raw).toThrow(ConfigError)
      expect(() => readConfig({ DATABASE_URL: raw }), raw).toThrow(/DATABASE_URL must be a postgres:\/\/ or mysql:\/\/ URL, got scheme/)
    }
    expect(() => readConfig({ DATABASE_URL: 'mongodb://u:secret@h/db' })).not.toThrow(/secret/)
    expect(() => readConfig({ DATABASE_URL: './data/gatehouse.db' })).toThrow('DATABASE_URL must be a URL (postgres:// or mysql://)')
    expect(() => readConfig({ REDIS_URL: 'memcached://u:secret@h' })).toThrow('REDIS_URL must be a redis:// or rediss:// URL, got scheme "memcached:"')
  })

  it('refuses WORKERS, SHUTDOWN_TIMEOUT or COOKIE_CACHE_MAX_AGE that are not whole numbers in range', () => {
    const url = 'postgres://localhost/app'
    for (const raw of ['0', '-1', '1.5', 'auto', 'two', '257']) {
      expect(() => readConfig({ DATABASE_URL: url, WORKERS: raw }), raw).toThrow(
        `WORKERS must be the number of server processes, a whole number from 1 to 256, got "${raw}"`,
      )
    }
    expect(() => readConfig({ SHUTDOWN_TIMEOUT: '0' })).toThrow(/SHUTDOWN_TIMEOUT must be the seconds SIGTERM waits/)
    expect(() => readConfig({ SHUTDOWN_TIMEOUT: '10s' })).toThrow(ConfigError)
    expect(() => readConfig({ COOKIE_CACHE_MAX_AGE: '0' })).toThrow(/COOKIE_CACHE_MAX_AGE must be the cookie cache lifetime/)
  })

  it('refuses several workers on SQLite: their rate limits and file locks would not be shared', () => {
    expect(() => readConfig({ WORKERS: '2' })).toThrow('WORKERS=2 needs DATABASE_URL (PostgreSQL or MySQL): SQLite serves one process')
    expect(readConfig({ WORKERS: '1' }).workers).toBe(1)
  })

  it('redacts user and password from URLs it prints', () => {
    expect(redacted('postgres://app:s3cret@db.internal:5432/auth?sslmode=require')).toBe('postgres://db.internal:5432/auth')
    expect(redacted('redis://:s3cret@cache:6379/2')).toBe('redis://cache:6379/2')
  })
})

describe('dist/main.js with a bad deployment variable', () => {
  it('stops with a configuration error and exit code 1, the password not printed', async () => {
    const run = runBuilt({ PORT: '0', DATABASE_URL: 'mongodb://u:topsecret@h/db' })
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('Configuration error: DATABASE_URL must be a postgres:// or mysql:// URL, got scheme "mongodb:"')
    expect(run.output()).not.toContain('topsecret')
    const workers = runBuilt({ PORT: '0', WORKERS: '3' })
    expect(await workers.exited).toBe(1)
    expect(workers.output()).toContain('Configuration error: WORKERS=3 needs DATABASE_URL')
  })
})
