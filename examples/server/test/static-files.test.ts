import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveInside, staticFiles } from '../src/static-files.js'

describe('resolveInside', () => {
  const root = '/srv/app'
  it.each([
    ['/', '/srv/app/'],
    ['/index.html', '/srv/app/index.html'],
    ['/assets/app-1a2b.js', '/srv/app/assets/app-1a2b.js'],
    ['/a/../b.txt', '/srv/app/b.txt'],
  ])('keeps %s inside the root', (path, expected) => {
    expect(resolveInside(root, path)).toBe(expected)
  })
  it.each(['/../etc/passwd', '/%2e%2e/etc/passwd', '/assets%2f..%2f..%2fsecret', '/a\\..\\..\\b', '/x%00.html', '/%E0%A4%A'])('refuses %s', (path) => {
    expect(resolveInside(root, path)).toBeNull()
  })
})

function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { path }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    request.on('error', reject)
    request.end()
  })
}

async function serve(root: string): Promise<{ server: Server; base: string }> {
  const handler = staticFiles(root)
  const server = createServer((req, res) => void handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

describe('staticFiles', () => {
  let dir = ''
  let built: { server: Server; base: string }
  let empty: { server: Server; base: string }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-static-'))
    await mkdir(join(dir, 'app', 'assets'), { recursive: true })
    await mkdir(join(dir, 'none'))
    await writeFile(join(dir, 'app', 'index.html'), '<!doctype html><title>shell</title>')
    await writeFile(join(dir, 'app', 'assets', 'main-abc123.js'), 'console.log(1)')
    await writeFile(join(dir, 'secret.txt'), 'outside')
    built = await serve(join(dir, 'app'))
    empty = await serve(join(dir, 'none'))
  })
  afterAll(async () => {
    built.server.close()
    empty.server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves files with their type, caching hashed assets for good', async () => {
    const response = await fetch(`${built.base}/assets/main-abc123.js`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await response.text()).toBe('console.log(1)')
  })

  it('answers the app shell for app routes, revalidated, with the security headers', async () => {
    for (const path of ['/', '/reset-password?token=abc', '/accept-invitation/inv-1']) {
      const response = await fetch(`${built.base}${path}`)
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<title>shell</title>')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
  })

  it('answers 404 for a missing asset and 400 for a path leaving the root', async () => {
    expect((await fetch(`${built.base}/assets/missing.js`)).status).toBe(404)
    // fetch would normalise the dots away; a raw request sends the path as written.
    for (const path of ['/%2e%2e/secret.txt', '/../secret.txt', '/..%2fsecret.txt']) {
      const escape = await rawGet(built.base, path)
      expect(escape.status).toBe(400)
      expect(escape.body).not.toContain('outside')
    }
  })

  it('refuses other methods', async () => {
    const response = await fetch(`${built.base}/`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })

  it('says how to build the app when it is missing', async () => {
    const response = await fetch(`${empty.base}/`)
    expect(response.status).toBe(503)
    expect(await response.text()).toContain('pnpm build')
  })
})
