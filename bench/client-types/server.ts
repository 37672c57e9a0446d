/**
 * The server both fixtures type: core with additional user and session
 * fields, and every first-party plugin with all its options on.
 */
import { createAuth } from '../../packages/core/src/index.js'
import { memoryAdapter } from '../../packages/core/src/db/memory/index.js'
import { billing } from '../../packages/billing/src/index.js'
import { organization } from '../../packages/organization/src/index.js'

export const auth = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  emailAndPassword: { enabled: true },
  plugins: [
    organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
    billing({ webhooks: { secret: 'whsec_YmVuY2gtc2VjcmV0LWJlbmNoLXNlY3JldA==' } }),
  ],
  user: { additionalFields: { plan: { type: 'string', required: false }, seats: { type: 'number', defaultValue: 1 } } },
  session: { additionalFields: { device: { type: 'string', required: false } } },
})
