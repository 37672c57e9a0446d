/** The baseline: the server and the client modules imported, no client built. */
import { auth } from './server.js'
import '../../packages/react/src/index.js'
import '../../packages/organization/src/client.js'
import '../../packages/billing/src/client.js'

export const server = auth
