/**
 * @module
 * Type-checks the TypeScript blocks of the docs that say they are complete:
 * a fence whose info string is `ts check` (or `tsx check`). Such a block is a
 * whole module, imports included, and must compile as written against the
 * packages' sources, so a renamed export or option breaks the check rather
 * than the reader's first copy and paste. Other blocks are fragments and are
 * not checked.
 *
 * Each block becomes a virtual file beside this one; `@gatehouse/<name>[/sub]`
 * resolves to `packages/<name>` through its exports map and the
 * `@gatehouse/source` condition (tsconfig.base.json), as the packages' own
 * type-checks do; any other module resolves from here, then from each
 * package and example folder (react from packages/react, hono from examples/hono).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

export interface CodeBlock {
  /** The markdown file, relative to the root. */
  readonly file: string
  /** The 1-based line of the block's first code line in the markdown file. */
  readonly line: number
  readonly language: 'ts' | 'tsx'
  readonly code: string
}

export interface BlockProblem {
  /** `<markdown file>:<line>`, the line in the markdown file. */
  readonly at: string
  readonly message: string
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(ts|tsx|typescript)\s+check\s*$/

/** The blocks marked `ts check` in a markdown text. */
export function checkedBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? '')
    if (!open) continue
    const fence = open[2] ?? '```'
    const indent = open[1]?.length ?? 0
    const body: string[] = []
    let end = index + 1
    for (; end < lines.length && !(lines[end] ?? '').trim().startsWith(fence); end++) body.push((lines[end] ?? '').slice(indent))
    blocks.push({ file, line: index + 2, language: open[3] === 'tsx' ? 'tsx' : 'ts', code: body.join('\n') })
    index = end
  }
  return blocks
}

/** How `typeCheckBlocks` compiles: tsconfig.base.json's options, changed. */
export interface CheckOptions {
  /** A browser program without Node's types, `exactOptionalPropertyTypes`, ... */
  readonly compilerOptions?: ts.CompilerOptions
  /**
   * Only the blocks' own errors, as a user's program with `skipLibCheck` sees
   * them: the packages' sources are read for their types, never checked,
   * which takes a fraction of the time. Default false: every error of the program.
   */
  readonly blocksOnly?: boolean
}

/**
 * Type-checks the blocks together (one program; each block its own module) and lists every error.
 * Block `n` is the module `./__docs_block_n.js`.
 */
export function typeCheckBlocks(blocks: readonly CodeBlock[], root: string, check: CheckOptions = {}): BlockProblem[] {
  const here = join(root, 'scripts/docs')
  const virtual = new Map<string, CodeBlock>()
  blocks.forEach((block, index) => {
    // `export {}` keeps each block a module, so two blocks may both declare `auth`.
    virtual.set(join(here, `__docs_block_${index}.${block.language}`), { ...block, code: `${block.code}\nexport {}\n` })
  })
  const base = ts.readConfigFile(join(root, 'tsconfig.base.json'), (path) => ts.sys.readFile(path))
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, root)
  const compilerOptions: ts.CompilerOptions = { ...options, noEmit: true, jsx: ts.JsxEmit.ReactJSX, noUnusedLocals: false, ...check.compilerOptions }
  const host = ts.createCompilerHost(compilerOptions)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (path) => virtual.has(path) || fileExists.call(host, path)
  host.readFile = (path) => virtual.get(path)?.code ?? readFile.call(host, path)
  host.getSourceFile = (path, language, ...rest) => {
    const block = virtual.get(path)
    return block ? ts.createSourceFile(path, block.code, language, true) : getSourceFile.call(host, path, language, ...rest)
  }
  const fallbacks = ['packages', 'examples'].flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, dir, entry.name, 'index.ts')),
  )
  host.resolveModuleNameLiterals = (literals, containingFile, _redirect, resolutionOptions) =>
    literals.map(({ text }) => {
      const own = /^@gatehouse\/([^/]+)/.exec(text)
      // A package resolves its own name through its exports map (self-reference).
      const from = own ? [join(root, 'packages', own[1] ?? '', 'index.ts')] : [containingFile, ...fallbacks]
      for (const file of from) {
        const found = ts.resolveModuleName(text, file, resolutionOptions, host).resolvedModule
        if (found) return { resolvedModule: found }
      }
      return { resolvedModule: undefined }
    })
  const program = ts.createProgram([...virtual.keys()], compilerOptions, host)
  const problems: BlockProblem[] = []
  const diagnostics = check.blocksOnly
    ? [
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...[...virtual.keys()].flatMap((path) => {
          const file = program.getSourceFile(path)
          return file ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : []
        }),
      ]
    : ts.getPreEmitDiagnostics(program)
  for (const diagnostic of diagnostics) {
    const block = diagnostic.file ? virtual.get(diagnostic.file.fileName) : undefined
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (!block || !diagnostic.file || diagnostic.start === undefined) {
      const where = diagnostic.file ? relative(root, diagnostic.file.fileName) : 'program'
      problems.push({ at: where, message })
      continue
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    problems.push({ at: `${block.file}:${block.line + line}`, message })
  }
  return problems
}

/** The markdown files whose blocks are checked: README.md and docs/ (reference pages included). */
export function docFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    )
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))]
}

/** Every `ts check` block of the docs. */
export function allCheckedBlocks(root: string): CodeBlock[] {
  return docFiles(root).flatMap((path) => checkedBlocks(readFileSync(path, 'utf8'), relative(root, path)))
}
