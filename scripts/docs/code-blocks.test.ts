import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { allCheckedBlocks, checkedBlocks, typeCheckBlocks } from './code-blocks.js'

const root = resolve(import.meta.dirname, '../..')

describe('docs code blocks marked `ts check`', () => {
  it('every one type-checks against the packages as written', () => {
    const blocks = allCheckedBlocks(root)
    // The pages whose snippets are meant to be copied whole: they must keep some checked blocks.
    for (const page of ['README.md', 'docs/endpoints.md', 'docs/plugins.md']) {
      expect(blocks.some((block) => block.file === page), page).toBe(true)
    }
    expect(typeCheckBlocks(blocks, root)).toEqual([])
  }, 120_000)

  it('finds only marked blocks, and reports a failing one at its markdown line', () => {
    const page = [
      '# Page',
      '```ts',
      'const notChecked: number = "fragment"',
      '```',
      '```ts check',
      "import { createAuth } from '@gatehouse/core'",
      "createAuth({ baseURL: 1 })",
      '```',
      '',
    ].join('\n')
    const blocks = checkedBlocks(page, 'guide/page.md')
    expect(blocks).toEqual([
      { file: 'guide/page.md', line: 6, language: 'ts', code: "import { createAuth } from '@gatehouse/core'\ncreateAuth({ baseURL: 1 })" },
    ])
    expect(typeCheckBlocks(blocks, root)).toEqual([{ at: 'guide/page.md:7', message: expect.stringContaining("not assignable to type 'string'") }])
  }, 120_000)
})
