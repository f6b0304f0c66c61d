// Every TypeScript block of README.md, docs/ and the package READMEs compiles under strict and
// noUncheckedIndexedAccess, and the ones marked `run` do what they say against the emulator
// (issue 18, "runnable docs"). How a block is read: test/docs/snippets.ts.
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { createDocsContext, type DocsContext } from './context.js'
import { extract, generate, typeErrors, writeAll, type Snippet } from './snippets.js'
import { slack } from '../utils/wait.js'

const snippets = writeAll()
const runnable = snippets.filter((s) => s.run)
let errors: Map<string, string[]> | undefined

describe('the extractor', () => {
  it('finds the blocks of every page, and refuses an attribute it does not know', () => {
    expect(snippets.length).toBeGreaterThan(40)
    expect(new Set(snippets.map((s) => s.file))).toContain('docs/react.md')
    expect(() => extract('x.md', '```ts frgament\nconst a = 1\n```')).toThrow(/unknown attribute "frgament"/)
    expect(() => extract('x.md', '```ts\nconst a = 1\n')).toThrow(/unclosed/)
  })

  it('wraps a fragment with its imports hoisted, so what is checked is what runs', () => {
    const [s] = extract('x.md', "```ts fragment run\nimport { maps } from '@tandem/core/maps'\nawait maps(tandem)\n```")
    const text = generate(s!)
    expect(text.indexOf("import { maps } from '@tandem/core/maps'")).toBeLessThan(text.indexOf('async function'))
    expect(text).toMatch(/\n {2}const \{ tandem \} = ctx\nawait maps\(tandem\)/) // only the context names it uses
    const [checked] = extract('x.md', '```ts fragment\nconst client = 1\nexport const a = await tandem.maps\n```')
    const decls = generate(checked!)
    expect(decls).toContain("declare const tandem: DocsContext['tandem']")
    expect(decls).not.toContain('declare const client') // the block declares its own
  })
})

describe('every block type-checks (strict, noUncheckedIndexedAccess)', () => {
  beforeAll(
    () => {
      errors = typeErrors(snippets)
    },
    Math.max(60_000, slack(40_000)),
  ) // one TypeScript program over every block: CPU-bound, slower on a busy machine

  it.each(snippets.map((s) => [s.id, s] as const))('%s', (_, s: Snippet) => {
    expect(errors?.get(s.id)).toEqual([])
  })
})

describe('the runnable blocks run against the emulator', () => {
  let emu: Emulator
  let ctx: DocsContext
  let calls: unknown[][]
  const hadWebSocket = 'WebSocket' in globalThis

  beforeAll(async () => {
    // As in a browser and on Node ≥ 22: realtime finds globalThis.WebSocket with no option.
    if (!hadWebSocket) Object.assign(globalThis, { WebSocket })
    emu = await startEmulator({ port: 0, seed: 1 })
    ;({ ctx, calls } = await createDocsContext(emu))
  })
  afterAll(async () => {
    ctx?.rt.close()
    if (!hadWebSocket) Reflect.deleteProperty(globalThis, 'WebSocket')
    await emu?.close()
  })

  it('marks the service walk-throughs runnable', () => {
    expect(runnable.map((s) => s.file)).toEqual(expect.arrayContaining(['README.md', 'docs/realtime.md']))
    expect(runnable.length).toBeGreaterThanOrEqual(6)
  })

  it.each(runnable.map((s) => [s.id, s] as const))('%s', async (_, s: Snippet) => {
    const mod = (await import(/* @vite-ignore */ s.path)) as { default: (ctx: DocsContext) => Promise<void> }
    // The walk-throughs print what they list: keep the report readable, and count the lines.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const before = calls.length
    // A snippet that throws (a 404, a ValidationError, a timeout) fails here.
    const printed = await mod
      .default(ctx)
      .then(() => log.mock.calls.length)
      .finally(() => log.mockRestore())
    // Each ran to its end: a block that prints or renders did so at least once.
    if (/console\.log|render\(/.test(s.code)) expect(printed + calls.length - before).toBeGreaterThan(0)
  })
})
