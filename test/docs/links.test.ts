// The docs' relative links and heading anchors resolve (issue 45, "Small truths"): how they are
// checked is test/docs/links.ts.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { brokenLinks, linkedFiles } from './links.js'
import { ROOT } from './snippets.js'

describe('the docs’ links', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-links-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('reads README, CONTRIBUTING, docs/ and every package’s README', () => {
    const files = linkedFiles()
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/playground.md', 'docs/services/maps.md']),
    )
    expect(files.filter((f) => /^packages\/[^/]+\/README\.md$/.test(f)).length).toBeGreaterThanOrEqual(9)
  })

  it('every relative link and heading anchor resolves', async () => {
    expect(await brokenLinks(linkedFiles())).toEqual([])
  })

  it('a missing file, a missing heading here and one in another page are each found', async () => {
    writeFileSync(join(scratch, 'other.md'), '# Other\n\n## Its one heading\n')
    writeFileSync(
      join(scratch, 'page.md'),
      [
        '# Page',
        '',
        '[ok](other.md#its-one-heading), [ok](#page),',
        '[gone](missing.md), [no heading](#nowhere), [no heading there](other.md#not-its-heading).',
        '',
      ].join('\n'),
    )
    const found = await brokenLinks(['page.md'], scratch)
    expect(found).toHaveLength(3)
    expect(found.join('\n')).toMatch(/missing\.md/)
    expect(found.join('\n')).toMatch(/#nowhere/)
    expect(found.join('\n')).toMatch(/#not-its-heading/)
  })
})

describe('the README’s package table', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const table = readme.slice(readme.indexOf('\n## Packages\n')).split('\n\n')[1] ?? ''

  it.each(readdirSync(join(ROOT, 'packages')))('lists packages/%s, with its guide in docs/ when it has one', (name) => {
    const row = table.split('\n').find((line) => line.startsWith(`| [\`@tandem/${name}\`](packages/${name})`))
    expect(row, `no row for @tandem/${name}`).toBeDefined()
    if (existsSync(join(ROOT, 'docs', `${name}.md`))) expect(readme).toContain(`](docs/${name}.md`)
  })
})
