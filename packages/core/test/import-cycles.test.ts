/**
 * Core's modules form a layered graph: every `import`, `import type`,
 * `export … from` and `import()` between core's source files points one way.
 * A cycle, even a type-only one, hides which layer depends on which (the
 * options, plugin and context types once formed one); `types/contract.ts`
 * holds the types that name each other, and this test keeps it that way.
 *
 * Folders point one way too: core's folders stand on floors
 * (docs/core.md#layout), and a folder imports only folders on the floors
 * below its own, so a reader can tell which layer stands on which.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const coreSource = resolve(import.meta.dirname, '../src')
const coreDocs = resolve(import.meta.dirname, '../../../docs/core.md')

/**
 * Core's floors, ground first: the folders of `src` (and its top-level files),
 * as docs/core.md#layout lists them. A folder imports only from lower floors,
 * never from its own floor's other folders or from a floor above.
 */
const floors: readonly (readonly string[])[] = [
  ['crypto/', 'errors/', 'logging/', 'security/'],
  ['cookies/', 'password/', 'storage/'],
  ['db/'],
  ['rate-limit/'],
  ['types/'],
  ['endpoint/', 'options.ts', 'plugins/'],
  ['accounts/', 'cleanup/', 'migrations/', 'session/', 'signing-keys/'],
  ['social/', 'verification/'],
  ['routes/'],
  ['auth/'],
  ['cli/', 'index.ts', 'integrations/', 'testing/'],
]

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

/** A file's floor unit: its top-level folder (`db/` for `db/kysely/sqlite.ts`), or the file itself at the top. */
function unitOf(file: string): string {
  const slash = file.indexOf('/')
  return slash === -1 ? file : file.slice(0, slash + 1)
}

/** Units on no floor, and every import that does not point to a lower floor, as `from -> to (floor n -> floor m)`. */
function layerViolations(graph: ReadonlyMap<string, readonly string[]>, order: readonly (readonly string[])[]): string[] {
  const floorOf = new Map(order.flatMap((units, floor) => units.map((unit) => [unit, floor] as const)))
  const units = new Set([...graph.keys()].map(unitOf))
  const unplaced = [...units].filter((unit) => !floorOf.has(unit)).map((unit) => `${unit} is on no floor`)
  const upward: string[] = []
  for (const [file, targets] of graph) {
    const from = floorOf.get(unitOf(file))
    for (const target of targets) {
      const to = floorOf.get(unitOf(target))
      if (from === undefined || to === undefined || unitOf(file) === unitOf(target) || to < from) continue
      upward.push(`${file} -> ${target} (floor ${from} -> floor ${to})`)
    }
  }
  return [...unplaced.sort(), ...[...new Set(upward)].sort()]
}

/** The floors docs/core.md#layout lists: one numbered line per floor, its units in backticks before the description. */
function documentedFloors(markdown: string): string[][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Layout\n')) ?? ''
  return [...section.matchAll(/^\d+\. ((?:`[^`]+`(?:, )?)+)/gm)].map(([, names]) => [...names!.matchAll(/`([^`]+)`/g)].map(([, name]) => name!))
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
    expect(graph.get('types/options.ts')).toEqual(['db/schema.ts', 'db/naming.ts', 'types/rows.ts'])
    for (const leaf of ['session/session-options.ts', 'accounts/passwords.ts']) {
      expect(graph.get(leaf)?.filter((target) => target.startsWith('types/contract') || target === 'options.ts')).toEqual([])
    }
  })

  it('imports only from the floors below, folder by folder (docs/core.md#layout)', () => {
    expect(layerViolations(importGraph(coreSource), floors)).toEqual([])
  })

  it('documents the floors it enforces in docs/core.md#layout', () => {
    expect(documentedFloors(readFileSync(coreDocs, 'utf8'))).toEqual(floors)
  })

  it('finds an import from a floor above, one within a floor and a folder on no floor', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-floors-'))
    for (const folder of ['low', 'high', 'side', 'stray']) mkdirSync(join(dir, folder))
    writeFileSync(join(dir, 'low/a.ts'), "import type { B } from '../high/b.js'\nexport type A = B\n")
    writeFileSync(join(dir, 'high/b.ts'), "export type B = number\n")
    writeFileSync(join(dir, 'high/c.ts'), "export { d } from '../side/d.js'\n")
    writeFileSync(join(dir, 'side/d.ts'), "export const d = 1\n")
    writeFileSync(join(dir, 'stray/e.ts'), "export const e = () => import('../low/a.js')\n")
    expect(layerViolations(importGraph(dir), [['low/'], ['high/', 'side/']])).toEqual([
      'stray/ is on no floor',
      'high/c.ts -> side/d.ts (floor 1 -> floor 1)',
      'low/a.ts -> high/b.ts (floor 0 -> floor 1)',
    ])
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
