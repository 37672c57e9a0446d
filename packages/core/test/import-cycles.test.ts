/**
 * Core's modules form a layered graph: every `import`, `import type`,
 * `export … from` and `import()` between core's source files points one way.
 * A cycle, even a type-only one, hides which layer depends on which (the
 * options, plugin and context types once formed one); `types/contract.ts`
 * holds the types that name each other, and this test keeps it that way.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const coreSource = resolve(import.meta.dirname, '../src')

function sourceFiles(dir: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/** `./x.js` names `./x.ts` (NodeNext style); a directory names its `index.ts`. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, join(base, 'index.ts')]
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

/** Each file's relative imports, by the compiler's own scanner (it sees type-only imports, re-exports and `import()`). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveRelative(file, specifier) ?? `${file} -> unresolved ${specifier}`)
    graph.set(relative(root, file), targets.map((target) => relative(root, target)))
  }
  return graph
}

/** The strongly connected components with more than one file (or a file importing itself): each is a cycle. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next)
    next += 1
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort())
  }
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file)
  return found
}

describe('core import graph', () => {
  it('has no cycles among core source files, type-only imports included', () => {
    const graph = importGraph(coreSource)
    expect(graph.size).toBeGreaterThan(100)
    const unresolved = [...graph.values()].flat().filter((target) => target.includes('unresolved'))
    expect(unresolved).toEqual([])
    expect(cycles(graph)).toEqual([])
  })

  it('keeps the shared types below the modules that re-export them', () => {
    const graph = importGraph(coreSource)
    expect(graph.get('options.ts')).toEqual(['types/contract.ts', 'types/options.ts'])
    expect(graph.get('types/options.ts')).toEqual(['db/schema.ts', 'session/types.ts'])
    for (const leaf of ['session/session-options.ts', 'accounts/passwords.ts']) {
      expect(graph.get(leaf)?.filter((target) => target.startsWith('types/contract') || target === 'options.ts')).toEqual([])
    }
  })

  it('finds a type-only cycle and a re-export cycle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cycles-'))
    mkdirSync(join(dir, 'types'))
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js'\nexport interface A { b: B }\n")
    writeFileSync(join(dir, 'b.ts'), "import { type A } from './a.js'\nexport interface B { a: A }\n")
    writeFileSync(join(dir, 'c.ts'), "export type { D } from './types/index.js'\nexport interface C { n: number }\n")
    writeFileSync(join(dir, 'types/index.ts'), "export type { D } from './d.js'\n")
    writeFileSync(join(dir, 'types/d.ts'), "import type { C } from '../c.js'\nexport interface D { c: C }\n")
    writeFileSync(join(dir, 'e.ts'), "export const e = () => import('./e.js')\n")
    writeFileSync(join(dir, 'leaf.ts'), "import type { A } from './a.js'\nexport type L = A\n")
    expect(cycles(importGraph(dir))).toEqual([['a.ts', 'b.ts'], ['c.ts', 'types/d.ts', 'types/index.ts'], ['e.ts']])
  })
})
