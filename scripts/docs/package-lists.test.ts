/**
 * The repository's README and docs/README.md each list the packages; a
 * package missing from one of them is missing for the readers who start
 * there (the passkey package once was, from the README). And every page
 * installs with npm, as the guide does: a reader copying from two pages
 * should not meet two package managers.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

function packagesNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/\[`?(@gatehouse\/[a-z-]+)`?\]\(/g)].map((match) => match[1] ?? ''))].sort()
}

describe('package lists', () => {
  it("README.md's table and docs/README.md's list name the same packages", () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8')
    const table = readme.split('\n').filter((line) => line.startsWith('| [`@gatehouse/')).join('\n')
    const docs = readFileSync(resolve(root, 'docs/README.md'), 'utf8')
    const start = docs.indexOf('\n## Packages\n')
    const end = docs.indexOf('\n## ', start + 1)
    const list = docs.slice(start, end < 0 ? undefined : end)
    expect(packagesNamed(table)).toContain('@gatehouse/passkey')
    expect(packagesNamed(table)).toEqual(packagesNamed(list))
  })
})

describe('install lines', () => {
  it('every docs page and README installs packages with npm', () => {
    const pages = ['README.md', ...readdirSync(resolve(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)]
    const offending = pages.flatMap((page) =>
      readFileSync(resolve(root, page), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(?:pnpm add|yarn add|bun add)\b/.test(line))
        .map((line) => `${page}: ${line.trim()}`),
    )
    expect(offending).toEqual([])
  })
})
