import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { isMarked } from '../../scripts/docs-code.mjs'

// Every TypeScript block of the docs becomes a module under test/docs/.generated, type-checked
// under the repo's strict options (noUncheckedIndexedAccess included) and, when marked `run`,
// executed against the emulator. The info string says how a block is read:
//
//   ```ts            a module on its own: every name it uses is imported or declared in it
//   ```ts fragment   code that continues the page: it may use the names DocsContext declares
//                    (test/docs/context.ts), the client, ids and the app's own functions
//   ```ts run        executed against the emulator (with `fragment`, given the live context)
//
// A fragment or a run block is wrapped in `export default async function (ctx)`, its imports
// hoisted above it: the code checked is the code run.

export const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..')
export const OUT = join(ROOT, 'test', 'docs', '.generated')
const ATTRS = new Set(['fragment', 'run'])
const LANGS = new Set(['ts', 'tsx'])

export interface Snippet {
  /** `README.md:114`: where the block opens. */
  id: string
  file: string
  line: number
  lang: 'ts' | 'tsx'
  fragment: boolean
  run: boolean
  code: string
  /** The generated module. */
  path: string
}

/** README.md, docs/**.md and every package's README. */
export function docFiles(): string[] {
  const md = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? md(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    )
  const packages = readdirSync(join(ROOT, 'packages')).map((p) => join('packages', p, 'README.md'))
  return ['README.md', ...md('docs'), ...packages.filter((p) => safeRead(p) !== undefined)]
}

const safeRead = (file: string) => {
  try {
    return readFileSync(join(ROOT, file), 'utf8')
  } catch {
    return undefined
  }
}

/** The TypeScript blocks of one markdown file; an unknown attribute is an error, not a silent skip. */
export function extract(file: string, text = safeRead(file) ?? ''): Snippet[] {
  const out: Snippet[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(.*)$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code block`)
    const lang = open[1]!
    const attrs = open[2]!.trim().split(/\s+/).filter(Boolean)
    // A block that is a tested app's file (scripts/docs-code.mjs) is checked where it lives.
    const fromFile = isMarked(lines, i)
    if (LANGS.has(lang) && !fromFile) {
      for (const a of attrs) if (!ATTRS.has(a)) throw new Error(`${file}:${i + 1}: unknown attribute "${a}"`)
      const id = `${file}:${i + 1}`
      const slug = `${file.replace(/[^\w]+/g, '-')}-${i + 1}`
      out.push({
        id,
        file,
        line: i + 1,
        lang: lang as 'ts' | 'tsx',
        fragment: attrs.includes('fragment'),
        run: attrs.includes('run'),
        code: lines.slice(i + 1, end).join('\n'),
        path: join(OUT, `${slug}.${lang}`),
      })
    }
    i = end
  }
  return out
}

/** The module a block becomes (see the header). */
export function generate(s: Snippet): string {
  const header = `// Generated from ${s.id} by test/docs/snippets.ts: edit the markdown, not this.\n`
  // `export {}`: a block without imports is still a module, so blocks never share globals.
  if (!s.fragment && !s.run) return `${header}${s.code}\nexport {}\n`
  const source = ts.createSourceFile(basename(s.path), s.code, ts.ScriptTarget.Latest, true, scriptKind(s))
  const imports: string[] = []
  let bodyStart = 0
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st)) break
    imports.push(st.getFullText(source).trim())
    bodyStart = st.getEnd()
  }
  // The context names the block uses and does not declare itself.
  const own = declared(source)
  const used = identifiers(source)
  const names = s.fragment ? CONTEXT_NAMES.filter((n) => used.has(n) && !own.has(n)) : []
  const context = relative(dirname(s.path), join(ROOT, 'test', 'docs', 'context.js'))
  const importContext = `import type { DocsContext } from '${context.startsWith('.') ? context : `./${context}`}'`
  const body = s.code.slice(bodyStart).replace(/^\n+/, '')
  if (!s.run) {
    // Checked, never run: the context as declarations, so the block keeps its exports and top-level await.
    const decls = names.map((n) => `declare const ${n}: DocsContext['${n}']`)
    return [header, ...imports, importContext, ...decls, '', body, 'export {}', ''].join('\n')
  }
  return [
    header,
    ...imports,
    importContext,
    '',
    'export default async function snippet(ctx: DocsContext): Promise<void> {',
    `  const { ${names.join(', ')} } = ctx`,
    body,
    '}',
    '',
  ].join('\n')
}

const scriptKind = (s: Snippet) => (s.lang === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS)

/** Names the block's top level declares (imports, variables, functions, classes). */
function declared(source: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  const bind = (n: ts.BindingName) => {
    if (ts.isIdentifier(n)) names.add(n.text)
    else for (const e of n.elements) if (!ts.isOmittedExpression(e)) bind(e.name)
  }
  for (const st of source.statements) {
    if (ts.isVariableStatement(st)) st.declarationList.declarations.forEach((d) => bind(d.name))
    else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) names.add(st.name.text)
    else if (ts.isImportDeclaration(st)) {
      const c = st.importClause
      if (c?.name) names.add(c.name.text)
      const b = c?.namedBindings
      if (b && ts.isNamedImports(b)) b.elements.forEach((e) => names.add(e.name.text))
      else if (b) names.add(b.name.text)
    }
  }
  return names
}

function identifiers(node: ts.Node, out = new Set<string>()): Set<string> {
  if (ts.isIdentifier(node)) out.add(node.text)
  node.forEachChild((child) => void identifiers(child, out))
  return out
}

/** What a fragment may use without declaring it (test/docs/context.ts keeps the types). */
export const CONTEXT_NAMES = [
  'tandem',
  'client',
  'rt',
  'signal',
  'mailboxId',
  'appId',
  'keyId',
  'secret',
  'oldSecret',
  'rawBody',
  'request',
  'render',
  'refetchChat',
  'showBanner',
  'yourSession',
  'notifyAgents',
  'index',
  'App',
  'root',
  'embeddedState',
  'emu',
]

/** Writes every block's module; returns the blocks. */
export function writeAll(): Snippet[] {
  rmSync(OUT, { recursive: true, force: true })
  mkdirSync(OUT, { recursive: true })
  const all = docFiles().flatMap((f) => extract(f))
  for (const s of all) writeFileSync(s.path, generate(s))
  return all
}

/**
 * Type errors per block, under the repo's own compiler options (strict, noUncheckedIndexedAccess).
 * Only the blocks and the context module are checked: the packages they import are type-checked by
 * `npm run typecheck`, and checking them again here was 40% of this (2.6 of 6.8 s quiet).
 */
export function typeErrors(snippets: Snippet[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  if (!config) throw new Error('tsconfig.json: unreadable')
  const context = join(ROOT, 'test', 'docs', 'context.ts')
  const program = ts.createProgram({
    rootNames: [...snippets.map((s) => s.path), context],
    options: { ...config.options, noEmit: true, noUnusedLocals: false },
  })
  const byPath = new Map(snippets.map((s) => [s.path, s]))
  const errors = new Map<string, string[]>(snippets.map((s) => [s.id, []]))
  const checked = [...snippets.map((s) => s.path), context].map((f) => program.getSourceFile(f)!)
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ]
  for (const d of diagnostics) {
    const s = d.file && byPath.get(d.file.fileName)
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    if (!s || !d.file || d.start === undefined) {
      // An error outside any block (the context module, the options) fails every block: loud, not lost.
      for (const list of errors.values()) list.push(`outside the blocks: ${text}`)
      continue
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start)
    const code = d.file.text.split('\n')[line]?.trim()
    errors.get(s.id)!.push(`TS${d.code} at \`${code}\`: ${text}`)
  }
  return errors
}
