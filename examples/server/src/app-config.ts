/**
 * @module
 * `GET /api/app-config`: what the React app needs to know about this
 * server before anyone signs in, which today is the social providers it may
 * offer as "Continue with …" buttons (`[{ id, name }]`, in configuration
 * order). Public by design: the ids are in every authorization URL anyway;
 * no client id or secret is ever listed. It lives outside `/api/auth`
 * because it is this example's, not Gatehouse's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ExampleAuth } from './auth.js'

export const APP_CONFIG_PATH = '/api/app-config'

export interface AppConfig {
  readonly socialProviders: ReadonlyArray<{ readonly id: string; readonly name: string }>
}

/**
 * @example
 * const appConfig = await appConfigHandler(auth)
 * if (req.url === APP_CONFIG_PATH) return appConfig(req, res)
 */
export async function appConfigHandler(auth: ExampleAuth): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  const context = await auth.$context
  const body: AppConfig = {
    socialProviders: [...context.socialProviders.values()].map((provider) => ({ id: provider.id, name: provider.definition.name })),
  }
  const json = JSON.stringify(body)
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end('{"error":"method not allowed"}')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' })
    res.end(req.method === 'HEAD' ? undefined : json)
  }
}
