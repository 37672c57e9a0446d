/**
 * The cross-process checks on MariaDB/MySQL (DATABASE_URL=mysql://…) with
 * Redis: sessions and their revocation, and the single-use redemptions, over
 * two built servers on one fresh database. Skipped, with the reason printed,
 * without GATEHOUSE_TEST_MYSQL_URL and GATEHOUSE_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apiKeyRemainingOnce,
  invitationOnce,
  oidcCodeAndRefreshOnce,
  passwordResetOnce,
  revocationUnderPolls,
  sessionAcrossProcesses,
  verificationOnce,
  webhookOnce,
  type Deployment,
} from './multi-process-cases.js'
import { openBacking, services, startProcess, type ServerProcess } from './multi-process-harness.js'

const enabled = Boolean(services.mysql && services.redis)
if (!enabled) console.log('skipped  multi-process MariaDB suite: GATEHOUSE_TEST_MYSQL_URL and GATEHOUSE_TEST_REDIS_URL must both be set')

describe.skipIf(!enabled)('several processes on MariaDB + Redis', () => {
  let backing: Awaited<ReturnType<typeof openBacking>> | undefined
  let servers: ServerProcess[] = []
  let deployment: Deployment

  beforeAll(async () => {
    backing = await openBacking('mysql')
    // Started together on the empty database: core's migration lock lets one migrate while the other waits.
    servers = await Promise.all([startProcess(backing.env), startProcess(backing.env)])
    deployment = backing.deployment(servers)
  }, 120_000)

  afterAll(async () => {
    const codes = await Promise.all(servers.map((server) => server.stop()))
    expect(codes).toEqual(servers.map(() => 0))
    await backing?.close()
  })

  it('a session from one process is valid on the other, and revoked on one it is refused by both at once', () => sessionAcrossProcesses(deployment))
  it('a session revoked while both processes poll it is refused by both once the revocation answered', () => revocationUnderPolls(deployment))
  it('verifies an email once for twenty concurrent redemptions', () => verificationOnce(deployment))
  it('resets a password once for twenty concurrent redemptions', () => passwordResetOnce(deployment))
  it('accepts an invitation once for twenty concurrent accepts', () => invitationOnce(deployment))
  it('applies a billing webhook id once for twenty concurrent deliveries', () => webhookOnce(deployment))
  it('redeems an OIDC authorization code and a refresh token once each for twenty concurrent requests', () => oidcCodeAndRefreshOnce(deployment))
  it('spends an API key with five uses left exactly five times for twenty concurrent requests', () => apiKeyRemainingOnce(deployment))
})
