/**
 * A package's README is also its npm page, where a relative link leads
 * nowhere: every link is absolute, and one into this repository (built from
 * the package's `repository` field) names a file that exists here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly repository?: { readonly url?: string; readonly directory?: string }
}

const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => !manifest.private)

describe.each(packages)('$manifest.name', ({ dir, manifest }) => {
  it('names the repository and its folder in it', () => {
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/)
    expect(manifest.repository?.directory).toBe(`packages/${dir}`)
  })

  it('links its README only to absolute addresses, and to files of this repository that exist', () => {
    const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8')
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '')
    expect(links.length).toBeGreaterThan(0)
    const base = `${(manifest.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`
    for (const link of links) {
      expect(link).toMatch(/^https:\/\//)
      if (link.startsWith(base)) expect(existsSync(join(root, link.slice(base.length).split('#')[0] ?? '')), link).toBe(true)
    }
  })
})
