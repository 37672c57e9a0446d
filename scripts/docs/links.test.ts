import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkLinks, checkSourceReferences, filesEndingIn, headingSlug, markdownFiles } from './links.js'

const root = resolve(import.meta.dirname, '../..')

describe('docs links', () => {
  it('every relative link of README.md and docs/ names an existing file and heading', () => {
    const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')), ...markdownFiles(join(root, 'examples'))]
    expect(files.length).toBeGreaterThan(10)
    expect(checkLinks(files, root)).toEqual([])
  })

  it('finds a missing file and a missing heading, and ignores code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-links-'))
    writeFileSync(join(dir, 'a.md'), '# Title\n\n## The `api` object\n\n[ok](b.md#setup) [gone](c.md) [bad](b.md#nowhere) [self](#the-api-object)\n`[not](x.md)`\n```\n[nor](y.md)\n```\n')
    writeFileSync(join(dir, 'b.md'), '# B\n\n## Setup\n')
    expect(checkLinks([join(dir, 'a.md')], dir)).toEqual([
      { file: 'a.md', link: 'c.md', reason: 'no such file' },
      { file: 'a.md', link: 'b.md#nowhere', reason: 'no heading #nowhere' },
    ])
  })

  it('every docs/<page>.md#<heading> cited in a source comment exists', () => {
    const sources = ['packages', 'examples', 'bench', 'scripts'].flatMap((dir) =>
      filesEndingIn(join(root, dir), ['.ts', '.tsx', '.mjs']),
    )
    expect(sources.length).toBeGreaterThan(100)
    // This file's own fixtures cite missing pages on purpose.
    const cited = sources.filter((file) => file !== import.meta.filename)
    expect(checkSourceReferences(cited, root)).toEqual([])
  })

  it('finds a cited page or heading that does not exist, and ignores longer paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-refs-'))
    mkdirSync(join(dir, 'docs'))
    writeFileSync(join(dir, 'docs/a.md'), '# A\n\n## Fresh sessions\n')
    writeFileSync(
      join(dir, 'x.ts'),
      '// docs/a.md#fresh-sessions, (docs/a.md) docs/a.md#stale docs/b.md#x\n// ../../docs/c.md packages/x/docs/d.md\n',
    )
    expect(checkSourceReferences([join(dir, 'x.ts')], dir)).toEqual([
      { file: 'x.ts', link: 'docs/a.md#stale', reason: 'no heading #stale' },
      { file: 'x.ts', link: 'docs/b.md#x', reason: 'no such file' },
    ])
  })

  it('slugs headings as GitHub does', () => {
    expect(headingSlug('Limits and defaults (RFC 6749 §4.1)')).toBe('limits-and-defaults-rfc-6749-41')
    expect(headingSlug('`lock`')).toBe('lock')
    expect(headingSlug('Client half')).toBe('client-half')
  })
})
