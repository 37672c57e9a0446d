/**
 * @module
 * Checks the relative links of the Markdown docs: the file a link names
 * exists, and a `#fragment` names a heading of that file (GitHub's heading
 * slugs). Links inside code blocks and inline code are not links.
 *
 * Source comments cite the docs the same way (`docs/sessions.md#fresh-sessions`):
 * `checkSourceReferences` holds those citations to the same rule, so a renamed
 * heading cannot leave a comment pointing nowhere.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export interface BrokenLink {
  readonly file: string
  readonly link: string
  readonly reason: string
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '')
}

function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '')
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingSlug(match[1] ?? '')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

/** Every `.md` file below `dir`, skipping node_modules and dotted directories. */
export function markdownFiles(dir: string): string[] {
  return filesEndingIn(dir, ['.md'])
}

/** Every file below `dir` whose name ends in one of `endings`, skipping node_modules, build output and dotted directories. */
export function filesEndingIn(dir: string, endings: readonly string[]): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...filesEndingIn(path, endings))
    else if (endings.some((ending) => entry.endsWith(ending))) files.push(path)
  }
  return files
}

/**
 * Citations of the docs in source files: `docs/<page>.md` or
 * `docs/<page>.md#<heading>`, read from the repository root. Each must name
 * an existing page and, with a fragment, one of its headings.
 *
 * @example
 * const broken = checkSourceReferences(filesEndingIn('packages', ['.ts']), process.cwd())
 */
export function checkSourceReferences(files: readonly string[], root: string): BrokenLink[] {
  const broken: BrokenLink[] = []
  const headings = new Map<string, Set<string>>()
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/(?<![\w./-])(docs\/[\w./-]*?\.md)(?:#([\w-]+))?/g)) {
      const [reference = '', page = '', fragment] = match
      const target = join(root, page)
      const where = relative(root, file)
      if (!existsSync(target)) {
        broken.push({ file: where, link: reference, reason: 'no such file' })
        continue
      }
      if (!fragment) continue
      let known = headings.get(target)
      if (!known) headings.set(target, (known = anchors(readFileSync(target, 'utf8'))))
      if (!known.has(fragment)) broken.push({ file: where, link: reference, reason: `no heading #${fragment}` })
    }
  }
  return broken
}

/**
 * @example
 * const broken = checkLinks(['README.md', ...markdownFiles('docs')], process.cwd())
 */
export function checkLinks(files: readonly string[], root: string): BrokenLink[] {
  const broken: BrokenLink[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const match of withoutCode(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = match[1] ?? ''
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue // http:, https:, mailto:
      const [path = '', fragment] = link.split('#')
      const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
      const where = relative(root, file)
      if (!existsSync(target)) {
        broken.push({ file: where, link, reason: 'no such file' })
        continue
      }
      if (fragment && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(fragment)) {
        broken.push({ file: where, link, reason: `no heading #${fragment}` })
      }
    }
  }
  return broken
}
