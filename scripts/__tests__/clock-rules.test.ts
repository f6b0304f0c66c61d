// The suite measures nothing with a stopwatch (CONTRIBUTING.md, "Tests that read the clock"): no test
// bounds a measured duration from above (`expect(took).toBeLessThan(...)`), which a busy machine breaks,
// except in a file whose first line is `// deadline-test: <why>`. A lower bound the code enforces (a wait
// is at least its Retry-After) is fine: slowness cannot break it.
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The marker, on a file's first line: its upper bounds on time are deadlines, each with a generous margin. */
export const DEADLINE_MARKER = /^\/\/ deadline-test: \S/

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name)
    if (d.isDirectory())
      return ['node_modules', 'dist', '.git', 'coverage', '.next'].includes(d.name) ? [] : testFiles(path)
    return /\.test\.tsx?$/.test(d.name) ? [path] : []
  })
}

const CLOCK = /\b(?:performance|Date)\.now\(\)|process\.hrtime/
/** `now() - x`: an elapsed time computed in place (`x - now()` is time left, which slowness only shortens). */
const ELAPSED = /\.now\(\)\s*-\s*[A-Za-z_$(]|process\.hrtime/
/** Names that hold a moment by convention even when the file does not stamp them itself (`frame.ts`, `noticed.at`). */
const STAMP_NAME = /^(?:at|ts|\w+At|arrived|started|since|t\d)$/

/** The code alone: comments and the insides of strings blanked (newlines kept, so lines still count). */
function code(text: string): string {
  const blank = (t: string) => t.replace(/[^\n]/g, ' ')
  return text.replace(
    /\/\*[\s\S]*?\*\/|(?<![:\\])\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (m) => (/^['"`]/.test(m) ? m[0] + blank(m.slice(1, -1)) + m.at(-1)! : blank(m)),
  )
}

/** The text inside the parentheses that open at `open` (the index of `(`), or undefined if unbalanced. */
function inside(text: string, open: number): string | undefined {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"' || c === '`') {
      // Skip a string; a template's `${...}` holds no parenthesis that matters here.
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++
    } else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i)
  }
  return undefined
}

/** The first argument of an argument list (up to a comma at depth 0). */
function firstArg(args: string): string {
  let depth = 0
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!
    if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c)) depth--
    else if (c === ',' && depth === 0) return args.slice(0, i)
  }
  return args
}

/** The expression that starts at `from`: up to a `,`, `;`, closing bracket or line end at its own depth. */
function expression(text: string, from: number): string {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"' || c === '`')
      for (i++; i < text.length && text[i] !== c; i++) i += text[i] === '\\' ? 1 : 0
    else if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c) && depth-- === 0) return text.slice(from, i)
    else if ((c === ',' || c === ';' || c === '\n') && depth === 0) return text.slice(from, i)
  }
  return text.slice(from)
}

/**
 * The names the file fills from the clock: moments (`x = Date.now()`, `{ at: performance.now() }`) and
 * durations (`x = now() - t0`, `{ ms: now() - t0 }`, `x.push(now() - t0)`, `x = a.at - b`, `p95 = took[i]`).
 */
export function clockNames(text: string): { stamps: Set<string>; durations: Set<string> } {
  const stamps = new Set<string>()
  const durations = new Set<string>()
  const assignments = [...text.matchAll(/\b(\w+)(?:\s*(?:=(?![=>])|:(?!:))|\.push\()/g)].map((m) => ({
    name: m[1]!,
    rhs: expression(text, m.index + m[0].length).trim(),
  }))
  for (const { name, rhs } of assignments) if (CLOCK.test(rhs)) stamps.add(name)
  for (let grew = true; grew;) {
    grew = false
    for (const { name, rhs } of assignments) {
      if (durations.has(name)) continue
      const from = /^(\w+)\s*(?:\[|$)/.exec(rhs)?.[1] // `p95 = took[i]`, `x = took`
      if (ELAPSED.test(rhs) || (from && durations.has(from)) || isDifferenceOfStamps(rhs, stamps)) {
        durations.add(name)
        grew = true
      }
    }
  }
  return { stamps, durations }
}

/** `a.at - b`, `Date.now() - started`: a subtraction with a moment on either side. */
function isDifferenceOfStamps(expr: string, stamps: Set<string>): boolean {
  if (/-\s*(?:performance|Date)\.now\(\)\s*$/.test(expr.trim()) && !ELAPSED.test(expr)) return false
  for (const m of expr.matchAll(/([\w.!?\]]+)\s*-\s*([\w.!?]+)/g)) {
    for (const side of [m[1]!, m[2]!]) {
      const last = side.replace(/[!?]/g, '').split('.').at(-1) ?? ''
      if (stamps.has(last) || STAMP_NAME.test(last)) return true
    }
  }
  return false
}

function measured(expr: string, names: ReturnType<typeof clockNames>): boolean {
  if (ELAPSED.test(expr)) return true
  if ([...names.durations].some((n) => new RegExp(`(?<![\\w'"])${n}\\b(?!\\s*:)`).test(expr))) return true
  return isDifferenceOfStamps(expr, names.stamps)
}

/**
 * `file:line` of every upper bound on a measured duration: `expect(d).toBeLessThan(...)` (or
 * `...OrEqual`, `.not.toBeGreaterThan`), `expect(limit).toBeGreaterThan(d)`, `expect(d < limit)` and
 * `assert(d < limit)`, where `d` is computed from the clock in the file. Empty for a marked file.
 */
export function clockUpperBounds(file: string, source: string): string[] {
  if (DEADLINE_MARKER.test(source)) return []
  const text = code(source)
  const names = clockNames(text)
  const lineOf = (index: number) => text.slice(0, index).split('\n').length
  const found: string[] = []
  for (const m of text.matchAll(/\b(expect(?:\.poll|\.soft)?|assert(?:\.ok)?)\(/g)) {
    const open = m.index + m[0].length - 1
    const args = inside(text, open)
    if (args === undefined) continue
    const subject = firstArg(args)
    const after = text.slice(open + args.length + 2)
    const matcher = /^\s*(\.not)?\s*\.(toBeLessThan|toBeLessThanOrEqual|toBeGreaterThan|toBeGreaterThanOrEqual)\(/.exec(
      after,
    )
    let upper = false
    if (matcher) {
      const below = matcher[2]!.startsWith('toBeLess') !== (matcher[1] !== undefined)
      const bound = inside(after, matcher[0].length - 1) ?? ''
      // `expect(limit).toBeGreaterThan(d)`: only a bound that is the duration alone (`x - d` is a lower one).
      const alone = firstArg(bound).trim()
      upper = below
        ? measured(subject, names)
        : /^[\w.]+$|^(?:performance|Date)\.now\(\)\s*-\s*[\w.]+$/.test(alone) && measured(alone, names)
    } else {
      // A comparison written out: `d < limit` or `limit > d`.
      const cmp = /^([^<>]*?)\s*(<=?|>=?)\s*([^<>]*)$/.exec(subject.replace(/=>/g, '⇒'))
      if (cmp) upper = cmp[2]!.startsWith('<') ? measured(cmp[1]!, names) : measured(cmp[3]!, names)
    }
    if (upper) found.push(`${file}:${lineOf(m.index)}`)
  }
  return found
}

describe('the suite measures nothing with a stopwatch', () => {
  it('no upper bound on a measured duration outside a file marked `// deadline-test: <why>`', () => {
    const found = ['packages', 'test', 'playground', 'examples', 'bench', 'scripts']
      .flatMap((top) => testFiles(join(ROOT, top)))
      .filter((f) => f !== fileURLToPath(import.meta.url)) // its samples are meant to be caught
      .flatMap((f) => clockUpperBounds(relative(ROOT, f), readFileSync(f, 'utf8')))
    expect(found).toEqual([])
  })

  it('the rule sees each way of writing one', () => {
    const flagged = (src: string) => clockUpperBounds('a.test.ts', src)
    expect(
      flagged('const t0 = performance.now()\nawait go()\nexpect(performance.now() - t0).toBeLessThan(500)'),
    ).toEqual(['a.test.ts:3'])
    expect(
      flagged('const started = Date.now()\nconst took = Date.now() - started\nexpect(took).toBeLessThan(1)'),
    ).toEqual(['a.test.ts:3'])
    expect(
      flagged(
        'const took = []\ntook.push(performance.now() - t0)\nconst p95 = took[9]\nexpect(p95).toBeLessThanOrEqual(5)',
      ),
    ).toEqual(['a.test.ts:4'])
    expect(
      flagged(
        'const r = { ms: performance.now() - s }\nconst { ms } = r\nexpect(ms, `why`).toBeLessThanOrEqual(\n  9,\n)',
      ),
    ).toEqual(['a.test.ts:3'])
    expect(flagged('const closedAt = Date.now()\nexpect(next.at - closedAt).toBeLessThan(2_000)')).toEqual([
      'a.test.ts:2',
    ])
    expect(flagged('expect(b.ts - a.ts).toBeLessThan(400)')).toEqual(['a.test.ts:1'])
    expect(flagged('const elapsed = Date.now() - t\nexpect(1_000).toBeGreaterThan(elapsed)')).toEqual(['a.test.ts:2'])
    expect(flagged('const elapsed = Date.now() - t\nexpect(elapsed).not.toBeGreaterThan(9)')).toEqual(['a.test.ts:2'])
    expect(flagged('const elapsed = Date.now() - t\nexpect(elapsed < 9).toBe(true)')).toEqual(['a.test.ts:2'])
    expect(flagged('const elapsed = Date.now() - t\nassert(elapsed <= 9)')).toEqual(['a.test.ts:2'])
  })

  it('and lets be what slowness cannot break: lower bounds, order, counts, time left, a marked file', () => {
    const flagged = (src: string) => clockUpperBounds('a.test.ts', src)
    expect(flagged('const took = Date.now() - t\nexpect(took).toBeGreaterThanOrEqual(1_000)')).toEqual([])
    expect(
      flagged('const a = { arrived: performance.now() }\nexpect(first.arrived).toBeLessThan(retry.arrived)'),
    ).toEqual([])
    expect(
      flagged('const elapsed = Date.now() - t\nexpect(heard.length).toBeLessThanOrEqual(elapsed / 100 + 1)'),
    ).toEqual([])
    expect(flagged('expect(lock.expiresAt - Date.now()).toBeLessThanOrEqual(30_000)')).toEqual([])
    expect(flagged('const since = Date.now() - 60_000\nexpect(list.length).toBeLessThan(9)')).toEqual([])
    expect(flagged('expect(tries, `${performance.now() - t0} ms`).toBeLessThanOrEqual(20) // took < 1')).toEqual([])
    expect(flagged('expect(renders).toBeLessThan(8)\nexpect(states.at(-1)!.waitMs).toBeLessThanOrEqual(750)')).toEqual(
      [],
    )
    expect(
      flagged('// deadline-test: close() must not wait 60 s\nexpect(performance.now() - t0).toBeLessThan(5_000)'),
    ).toEqual([])
    expect(
      flagged(
        '// a comment\n// deadline-test: marked on the second line\nexpect(performance.now() - t0).toBeLessThan(5)',
      ),
    ).toEqual(['a.test.ts:3'])
  })
})
