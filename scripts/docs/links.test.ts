import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkLinks, headingSlug, markdownFiles } from './links.js'

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

  it('slugs headings as GitHub does', () => {
    expect(headingSlug('Limits and defaults (SPEC §9)')).toBe('limits-and-defaults-spec-9')
    expect(headingSlug('`lock`')).toBe('lock')
    expect(headingSlug('Client half')).toBe('client-half')
  })
})
