// docs/architecture.md's generated sections, made from the code (issue 46, "The map is true"):
// the packages with their real dependencies (from each package.json), and every state machine's
// states and the events each takes (from the `TABLE` each machine module exports). The test beside
// this file fails when the document says something else; `npm run docs:architecture` rewrites it.
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './snippets.js'

export const DOC = join(ROOT, 'docs/architecture.md')

interface PackageJson {
  name: string
  description?: string
  private?: boolean
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const readJson = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8')) as PackageJson

/** Every workspace package under packages/, by name. */
export function packages(): { dir: string; json: PackageJson }[] {
  return readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ dir: `packages/${d.name}`, file: join(ROOT, 'packages', d.name, 'package.json') }))
    .flatMap(({ dir, file }) => {
      try {
        return [{ dir, json: readJson(file) }]
      } catch {
        return []
      }
    })
    .sort((a, b) => a.json.name.localeCompare(b.json.name))
}

const code = (names: string[]) => (names.length ? names.map((n) => `\`${n}\``).join(', ') : '—')
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function renderPackages(): string {
  const rows = packages().map(({ dir, json }) => {
    const deps = Object.keys(json.dependencies ?? {})
    const peers = Object.keys(json.peerDependencies ?? {}).filter((n) => n !== 'typescript')
    const optional = new Set(
      Object.entries(json.peerDependenciesMeta ?? {})
        .filter(([, m]) => m.optional)
        .map(([n]) => n),
    )
    const peerCells = peers.map((n) => (optional.has(n) ? `${n} (optional)` : n))
    return `| [\`${json.name}\`](../${dir}) | ${code(deps)} | ${code(peerCells)} | ${cell(json.description ?? '')} |`
  })
  return [
    '| package | depends on | peers | what it is (its package.json) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name)
    if (d.isDirectory()) return d.name === '__tests__' || d.name === 'generated' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(d.name) && !/\.(test|test-d|d)\.tsx?$/.test(d.name) ? [path] : []
  })
}

/** The modules that export a machine's `TABLE` (phase → event type → handler). */
export function machineFiles(): string[] {
  return packages()
    .flatMap(({ dir }) => sourceFiles(join(ROOT, dir, 'src')))
    .filter((f) => /^export const TABLE\b/m.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f))
    .sort()
}

type Table = Record<string, Record<string, unknown>>

export async function renderMachines(): Promise<string> {
  const parts: string[] = []
  for (const file of machineFiles()) {
    const mod = (await import(/* @vite-ignore */ pathToFileURL(join(ROOT, file)).href)) as { TABLE: Table }
    const states = Object.keys(mod.TABLE)
    const events = [...new Set(states.flatMap((s) => Object.keys(mod.TABLE[s]!)))]
    parts.push(
      `### \`${file}\``,
      '',
      `${states.length} states, ${events.length} events. A pair not in the table changes nothing.`,
      '',
      '| state | events it takes |',
      '| --- | --- |',
      ...states.map((s) => `| \`${s}\` | ${code(Object.keys(mod.TABLE[s]!))} |`),
      '',
    )
  }
  return parts.join('\n').trimEnd()
}

const marks = (name: string) => [`<!-- generated: ${name} -->`, `<!-- /generated: ${name} -->`] as const

/** The text between a section's marks, or undefined where the document has none. */
export function section(doc: string, name: string): string | undefined {
  const [open, close] = marks(name)
  const a = doc.indexOf(open)
  const b = doc.indexOf(close)
  return a < 0 || b < a ? undefined : doc.slice(a + open.length, b).trim()
}

export function withSection(doc: string, name: string, body: string): string {
  const [open, close] = marks(name)
  const a = doc.indexOf(open)
  const b = doc.indexOf(close)
  if (a < 0 || b < a) throw new Error(`docs/architecture.md has no ${open} … ${close}`)
  return `${doc.slice(0, a + open.length)}\n\n${body}\n\n${doc.slice(b)}`
}

/** Bundled into a one-file build (scripts/build-browser.mjs), so their imports are build-time dependencies. */
const BUNDLED = new Set(['packages/messenger/src/standalone.ts'])

/** The packages a package's own source imports at run time (tests and `import type` excluded), by name. */
export function importedPackages(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const file of sourceFiles(join(ROOT, dir, 'src'))) {
    const path = relative(ROOT, file)
    if (BUNDLED.has(path)) continue
    const text = readFileSync(file, 'utf8')
    const specs = [
      ...text.matchAll(/^(?:import|export)(?!\s+type\b)[^;'"]*?\bfrom\s+'([@a-z0-9][^']*)'/gm),
      ...text.matchAll(/^import\s+'([@a-z0-9][^']*)'/gm),
      ...text.matchAll(/\bimport\('([@a-z0-9][^']*)'\)/g),
    ].map((m) => m[1]!)
    for (const spec of specs) {
      if (spec.startsWith('node:')) continue
      const root = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!
      found.set(root, [...(found.get(root) ?? []), path])
    }
  }
  return found
}
