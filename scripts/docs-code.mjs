// Code blocks of the docs that are the files of a tested app, not a copy of them. A block opened
// right under a marker line
//
//   <!-- code: test/next-fresh/template/app/layout.tsx -->
//
// must read as that file: a `// app/layout.tsx` line (its path in its app, the nearest folder
// above it with a package.json) for TypeScript and JavaScript, then the file itself. The file is
// checked where it lives (docs/next.md's app is built and run by test/next-fresh), so
// test/docs/snippets.ts leaves these blocks out. `npm test` fails on a block that differs
// (test/docs/code-from-files.test.ts); `node scripts/docs-code.mjs --write` rewrites them from the files.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CODE_MARKER = /^<!-- code: (\S+) -->$/
const HEADED = /\.(tsx?|mjs|cjs|jsx?)$/

/** The path of `file` (from the repository's root) in its app: below the nearest package.json. */
function inApp(file) {
  for (let dir = dirname(file); dir !== '.' && dir !== '/'; dir = dirname(dir))
    if (existsSync(join(ROOT, dir, 'package.json'))) return relative(dir, file)
  return file
}

/** What the block under a marker for `file` must hold. */
export function expectedBlock(file) {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/\n+$/, '')
  return HEADED.test(file) ? `// ${inApp(file)}\n${text}` : text
}

/**
 * The marked blocks of a markdown text: where each opens (1-based line of its fence), the file it
 * names, what it holds and what it must hold. A marker not followed by a fence, a fence never
 * closed or a file that is not there is an error, not a block passed over.
 */
export function codeBlocks(doc, text = readFileSync(join(ROOT, doc), 'utf8')) {
  const lines = text.split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const marker = CODE_MARKER.exec(lines[i])
    if (!marker) continue
    const file = marker[1]
    // Prettier puts a blank line between the comment and the fence.
    let fence = i + 1
    while (lines[fence] === '') fence++
    if (!/^```\S+/.test(lines[fence] ?? ''))
      throw new Error(`${doc}:${i + 1}: a code marker must sit right above a fence`)
    const end = lines.findIndex((l, j) => j > fence && l.startsWith('```'))
    if (end < 0) throw new Error(`${doc}:${fence + 1}: unclosed code block`)
    if (!existsSync(join(ROOT, file))) throw new Error(`${doc}:${i + 1}: ${file} does not exist`)
    const actual = lines.slice(fence + 1, end).join('\n')
    blocks.push({ doc, line: fence + 1, file, from: fence + 1, to: end, actual, expected: expectedBlock(file) })
    i = end
  }
  return blocks
}

/** Whether the fence on line `i` (0-based) of `lines` opens a marked block. */
export function isMarked(lines, i) {
  let above = i - 1
  while (above >= 0 && lines[above] === '') above--
  return above >= 0 && CODE_MARKER.test(lines[above])
}

/** The markdown text with every marked block rewritten from its file. */
export function rewrite(doc, text = readFileSync(join(ROOT, doc), 'utf8')) {
  const lines = text.split('\n')
  for (const b of codeBlocks(doc, text).reverse()) lines.splice(b.from, b.to - b.from, ...b.expected.split('\n'))
  return lines.join('\n')
}

/** README.md, docs/**.md and the package READMEs (the pages test/docs reads). */
export function markdownFiles() {
  const walk = (dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    )
  const packages = readdirSync(join(ROOT, 'packages')).map((p) => join('packages', p, 'README.md'))
  return ['README.md', ...walk('docs'), ...packages.filter((p) => existsSync(join(ROOT, p)))]
}

// As a script: checks every page's marked blocks, or rewrites them from their files (`--write`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const write = process.argv.includes('--write')
  let stale = 0
  for (const doc of markdownFiles()) {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    if (write) {
      const next = rewrite(doc, text)
      if (next !== text) writeFileSync(join(ROOT, doc), next)
      continue
    }
    for (const b of codeBlocks(doc, text).filter((b) => b.actual !== b.expected)) {
      stale++
      console.error(`${doc}:${b.line} differs from ${b.file}`)
    }
  }
  if (stale) process.exit(1)
}
