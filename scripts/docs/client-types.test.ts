/**
 * The compile errors and the browser type-check docs/client.md#types-come-from-the-server
 * promises, checked with tsc itself: a client typed from the server that
 * forgets a plugin's client half fails with a message naming the call to
 * add, and the server's `auth` can be imported for its type into a browser
 * program without Node's types.
 */
import { resolve } from 'node:path'
import ts from 'typescript'
import { beforeEach, describe, expect, it } from 'vitest'
import { typeCheckBlocks, type CodeBlock } from './code-blocks.js'

const root = resolve(import.meta.dirname, '../..')

// Each check holds the worker for a while: let vitest's messages through between them, or its RPC times out.
beforeEach(() => new Promise((resolve) => setImmediate(resolve)))

/** Modules of one program: module `n` is importable as `./__docs_block_n.js`. */
function modules(...files: readonly string[]): CodeBlock[] {
  return files.map((code, index) => ({ file: `module-${index}.ts`, line: 1, language: 'ts', code }))
}

const server = `import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { organization } from '@gatehouse/organization'
export const auth = createAuth({ baseURL: 'http://localhost:3000', secret: process.env.AUTH_SECRET, database: memoryAdapter(), plugins: [organization()] })`

/** A browser program as Vite's templates set one up: the DOM, and no Node types. */
const browser: ts.CompilerOptions = { types: [], lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'] }

const fix = 'Pass plugins: [organizationClient()] imported from @gatehouse/organization/client'

describe('createAuthClient<typeof auth>() without the client halves the server needs', () => {
  it('names the call to add: no options, options without plugins, or the wrong plugins', () => {
    const client = `import { createAuthClient } from '@gatehouse/react'
import { organizationClient } from '@gatehouse/organization/client'
import type { auth } from './__docs_block_0.js'
export const none = createAuthClient<typeof auth>()
export const noPlugins = createAuthClient<typeof auth>({ baseURL: 'http://localhost:3000' })
export const right = createAuthClient<typeof auth>({ plugins: [organizationClient()] })
right.organization.create({ name: 'Acme', slug: 'acme' })`
    const problems = typeCheckBlocks(modules(server, client), root, { blocksOnly: true })
    expect(problems).toEqual([
      { at: 'module-1.ts:4', message: expect.stringContaining(`'this' of type '"${fix}"'`) },
      { at: 'module-1.ts:5', message: expect.stringContaining(fix) },
    ])
  }, 120_000)

  it('names it when the client half was never imported, and every half of several plugins (in a browser program)', () => {
    const twoPlugins = server.replace("import { organization } from '@gatehouse/organization'", "$&\nimport { admin } from '@gatehouse/admin'").replace('[organization()]', '[organization(), admin()]')
    const client = `import { createAuthClient } from '@gatehouse/react'
import type { auth } from './__docs_block_0.js'
export const client = createAuthClient<typeof auth>({ baseURL: 'http://localhost:3000' })`
    const problems = typeCheckBlocks(modules(`/// <reference types="node" />\n${twoPlugins}`, client), root, { compilerOptions: browser, blocksOnly: true })
    expect(problems).toEqual([
      {
        at: 'module-1.ts:3',
        message: expect.stringContaining(
          'Pass plugins: [organizationClient(), adminClient()] imported from @gatehouse/organization/client, @gatehouse/admin/client',
        ),
      },
    ])
  }, 120_000)
})

describe('the server type in a browser program without Node types', () => {
  // The case above already compiles the server module, /// line first, in such a program: its only error is the client's.
  it('needs the server module to reference Node types itself', () => {
    const problems = typeCheckBlocks(modules('export const secret = process.env.AUTH_SECRET', "export type { secret } from './__docs_block_0.js'"), root, { compilerOptions: browser, blocksOnly: true })
    expect(problems).toEqual([{ at: 'module-0.ts:1', message: expect.stringContaining("Cannot find name 'process'") }])
  })
})
