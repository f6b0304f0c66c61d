// The code blocks of the docs that are a tested app's files (docs/next.md: the fresh Next.js app
// of test/next-fresh, built and run in Chromium) hold those files as they are: the example and
// what the test proves cannot drift apart. How a block is marked: scripts/docs-code.mjs.
import { describe, expect, it } from 'vitest'
import { codeBlocks, markdownFiles, rewrite } from '../../scripts/docs-code.mjs'
import { extract } from './snippets.js'

const blocks = markdownFiles().flatMap((doc) => codeBlocks(doc))

describe('docs code from files', () => {
  it('docs/next.md is made of the fresh Next.js app and examples/next', () => {
    const next = blocks.filter((b) => b.doc === 'docs/next.md').map((b) => b.file)
    expect(next).toEqual(
      expect.arrayContaining([
        'test/next-fresh/template/app/layout.tsx',
        'test/next-fresh/template/app/page.tsx',
        'test/next-fresh/template/lib/tandem.ts',
        'test/next-fresh/template/app/api/tandem-token/route.ts',
        'examples/next/next.config.ts',
      ]),
    )
    // No TypeScript block of the page is a copy: each is a file of an app that is built and run.
    expect(extract('docs/next.md')).toEqual([])
  })

  it.each(blocks.map((b) => [`${b.doc}:${b.line} (${b.file})`, b] as const))(
    '%s holds the file (`node scripts/docs-code.mjs --write` rewrites it)',
    (_, b) => {
      expect(b.actual).toBe(b.expected)
    },
  )

  it('a marker names a file that exists and sits right above a fence (a blank line between); --write makes a page agree', () => {
    expect(() => codeBlocks('x.md', '<!-- code: nowhere/app.ts -->\n```ts\n```')).toThrow(/does not exist/)
    expect(() => codeBlocks('x.md', '<!-- code: examples/next/next.config.ts -->\ntext\n```ts\n```')).toThrow(
      /right above/,
    )
    const stale = 'Text\n<!-- code: examples/next/next.config.ts -->\n\n```ts\nold\n```\nmore'
    const [fixed] = codeBlocks('x.md', rewrite('x.md', stale))
    expect(fixed!.actual).toBe(fixed!.expected)
    expect(fixed!.actual.split('\n')[0]).toBe('// next.config.ts')
  })
})
