// The docs' bundle figures come from the bench's last run (issue 28): every marked block in the
// READMEs, docs/*.md and bench/RESULTS.md is what bench/results/bundle.json renders to, and no
// bundle figure is written by hand outside one. `npm run bench -- bundle` regenerates them.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types, shared with the bench.
import { blocks, docFiles, readFigures, render } from '../bundle-figures.mjs'

interface Block {
  name: string
  end: string
  content: string
}
const root = new URL('../../../', import.meta.url)
const read = (file: string) => readFileSync(new URL(file, root), 'utf8')
const files = docFiles() as string[]
const fix = 'run `npm run bench -- bundle` (it rewrites the blocks from bench/results/bundle.json)'

/** The text outside the marked blocks and the code fences. */
const prose = (text: string) =>
  text.replace(/<!-- bench:([\w-]+):start -->[\s\S]*?<!-- bench:\1:end -->/g, '').replace(/```[\s\S]*?```/g, '')

/** A size in kB or KiB, in a paragraph that speaks of bundles: a bundle figure (a simple check). */
const SIZE = /\d(?:[\d.,]*\d)?\s?(?:kB|KiB)\b/
const BUNDLE = /gzip|minified|brotli|bundle/i

describe("the docs' bundle figures come from the bench's last run (bench/results/bundle.json)", () => {
  it.each(files)('%s: every marked block is what the figures render to', async (file) => {
    const text = read(file)
    const found = blocks(text) as Block[]
    expect(found.length, `${file}: a start marker without its end`).toBe(
      text.match(/<!-- bench:[\w-]+:start -->/g)?.length ?? 0,
    )
    const figures = readFigures()
    for (const block of found) {
      expect(block.end, `${file}: bench:${block.name} ends with bench:${block.end}`).toBe(block.name)
      expect(block.content, `${file}: bench:${block.name} is not what results/bundle.json renders to; ${fix}`).toBe(
        await render(block.name, figures),
      )
    }
  })

  it('README.md, docs/architecture.md and bench/RESULTS.md carry the generated tables', () => {
    const names = (file: string) => (blocks(read(file)) as Block[]).map((b) => b.name)
    expect(names('README.md')).toContain('bundle')
    expect(names('docs/architecture.md')).toEqual(
      expect.arrayContaining(['bundle-goals', 'bundle-entries', 'bundle-modules']),
    )
    expect(names('bench/RESULTS.md')).toContain('bundle-results')
  })

  it.each(files.filter((f) => f !== 'bench/RESULTS.md'))(
    '%s: no hand-written bundle figure outside a block',
    (file) => {
      const handWritten = prose(read(file))
        .split(/\n\s*\n/)
        .filter((paragraph) => SIZE.test(paragraph) && BUNDLE.test(paragraph))
      expect(handWritten, `${file}: put bundle figures in a generated block (bench/src/bundle-figures.mjs)`).toEqual([])
    },
  )

  it('the checks can fail: a changed figure, a hand-written one', async () => {
    const figures = readFigures()
    const rendered = await render('bundle', figures)
    const changed = {
      ...figures,
      useCases: figures.useCases.map((u: { gzip: number }) => ({ ...u, gzip: u.gzip + 10 })),
    }
    expect(await render('bundle', changed)).not.toBe(rendered)
    const text = `A paragraph.\n\nThe maps app is 13.9 kB min+gzip.\n\n<!-- bench:bundle:start -->\n13.9 kB gzip\n<!-- bench:bundle:end -->`
    expect(
      prose(text)
        .split(/\n\s*\n/)
        .filter((p) => SIZE.test(p) && BUNDLE.test(p)),
    ).toEqual(['The maps app is 13.9 kB min+gzip.'])
  })
})
