// Rules of the code base a reviewer would otherwise check by eye (CONTRIBUTING.md, "Code map"):
// small files, and no state hidden in module-level WeakMaps without the reason written beside it.
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const MAX_LINES = 300

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name)
    if (d.isDirectory()) return ['__tests__', 'generated', 'node_modules', 'dist'].includes(d.name) ? [] : sources(path)
    return /\.tsx?$/.test(d.name) && !/\.(test|test-d|d)\.tsx?$/.test(d.name) ? [path] : []
  })
}

const packageSources = () =>
  readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      try {
        return sources(join(ROOT, 'packages', d.name, 'src'))
      } catch {
        return []
      }
    })

/** Module-level `new WeakMap` lines with no comment on the line before that says why. */
export function unexplainedWeakMaps(file: string, text: string): string[] {
  const lines = text.split('\n')
  return lines.flatMap((line, i) =>
    /^(export )?const \w+ = new WeakMap\b/.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(lines[i - 1] ?? '')
      ? [`${file}:${i + 1}`]
      : [],
  )
}

describe('code rules', () => {
  it(`no source file over ${MAX_LINES} lines`, () => {
    const long = packageSources()
      .map((f) => ({ f: relative(ROOT, f), n: readFileSync(f, 'utf8').trimEnd().split('\n').length }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n}`)
    expect(long).toEqual([])
  })

  it('every module-level WeakMap says why it is one', () => {
    const found = packageSources().flatMap((f) => unexplainedWeakMaps(relative(ROOT, f), readFileSync(f, 'utf8')))
    expect(found).toEqual([])
  })

  it('the WeakMap rule sees one without its reason, and not one with it', () => {
    expect(unexplainedWeakMaps('a.ts', 'import x\nconst seen = new WeakMap<object, number>()\n')).toEqual(['a.ts:2'])
    expect(unexplainedWeakMaps('a.ts', '// keyed by the app’s objects\nconst seen = new WeakMap()\n')).toEqual([])
  })
})
