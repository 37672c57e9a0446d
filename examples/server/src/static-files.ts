/**
 * @module
 * Serves the built React app: files below one directory, and `index.html`
 * for any other GET so the app's own routes (`/reset-password`,
 * `/accept-invitation/:id`) load on a reload. A request path never leaves
 * the directory (`..`, encoded slashes and NUL are refused), and every
 * answer carries headers that keep tokens in URLs from leaking through
 * the Referer header and keep the pages out of frames.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    // https: images for the consent page, which shows the icon each OAuth client registered.
    "default-src 'self'; img-src 'self' data: https:; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  // Reset and verification links carry tokens in their query strings.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

const MISSING_APP = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gatehouse example</title></head>
<body><main><h1>The React app is not built</h1>
<p>Run <code>pnpm build</code> at the repository root, then restart the server. The API is up at <a href="/api/auth/ok">/api/auth/ok</a>.</p>
</main></body></html>
`

/** The file a request path names inside `root`, or null when it would leave it. */
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\') || /%2f/i.test(pathname)) return null
  const target = normalize(join(root, decoded))
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep) ? target : null
}

async function fileAt(path: string | null): Promise<{ path: string; size: number } | null> {
  if (path === null) return null
  try {
    const info = await stat(path)
    return info.isFile() ? { path, size: info.size } : null
  } catch {
    return null
  }
}

/**
 * @example
 * const serve = staticFiles('/srv/app/dist')
 * createServer((req, res) => serve(req, res))
 */
export function staticFiles(root: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS }).end()
      return
    }
    const pathname = (req.url ?? '/').split('?')[0] ?? '/'
    const requested = resolveInside(root, pathname)
    if (requested === null) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Bad request path\n')
      return
    }
    // A name with an extension is an asset: missing means 404, not the app shell.
    const found = (await fileAt(requested)) ?? (extname(pathname) === '' ? await fileAt(join(root, 'index.html')) : null)
    if (found === null) {
      const appBuilt = (await fileAt(join(root, 'index.html'))) !== null
      res.writeHead(appBuilt ? 404 : 503, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS })
      res.end(appBuilt ? 'Not found\n' : MISSING_APP)
      return
    }
    const hashedAsset = found.path.includes(`${sep}assets${sep}`)
    res.writeHead(200, {
      'content-type': TYPES[extname(found.path)] ?? 'application/octet-stream',
      'content-length': String(found.size),
      // Vite names assets by content hash; the shell must be revalidated to pick up a new build.
      'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...SECURITY_HEADERS,
    })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    createReadStream(found.path).pipe(res)
  }
}
