// docs/architecture.md against the code: its generated sections (packages, state machines) are what
// the code says now, and every package imports only what its package.json declares.
// `npm run docs:architecture` rewrites the sections; this test fails until it has been run.
import { readFileSync, writeFileSync } from 'node:fs'
import { format, resolveConfig } from 'prettier'
import { describe, expect, it } from 'vitest'
import {
  DOC,
  importedPackages,
  machineFiles,
  packages,
  renderMachines,
  renderPackages,
  section,
  withSection,
} from './architecture.js'

async function expected(): Promise<string> {
  let doc = readFileSync(DOC, 'utf8')
  doc = withSection(doc, 'packages', renderPackages())
  doc = withSection(doc, 'machines', await renderMachines())
  return format(doc, { ...(await resolveConfig(DOC)), filepath: DOC })
}

describe('docs/architecture.md', () => {
  it('finds the machines the code has', () => {
    const files = machineFiles()
    expect(files.some((f) => f.endsWith('connection-machine.ts'))).toBe(true)
    expect(files.some((f) => /tabs\/role(-machine)?\.ts$/.test(f))).toBe(true)
  })

  it('says what the code says (packages, their dependencies, every machine’s states and events)', async () => {
    const want = await expected()
    if (process.env.TANDEM_WRITE_DOCS === '1') writeFileSync(DOC, want)
    const have = readFileSync(DOC, 'utf8')
    expect(section(have, 'packages')).toBe(section(want, 'packages'))
    expect(section(have, 'machines')).toBe(section(want, 'machines'))
  })

  it('a package imports only what its package.json declares', () => {
    const undeclared: string[] = []
    for (const { dir, json } of packages()) {
      const declared = new Set([
        json.name,
        ...Object.keys(json.dependencies ?? {}),
        ...Object.keys(json.peerDependencies ?? {}),
      ])
      for (const [name, files] of importedPackages(dir))
        if (!declared.has(name)) undeclared.push(`${json.name} imports ${name} (${files[0]})`)
    }
    expect(undeclared).toEqual([])
  })

  it('a changed edge shows: the section differs from a table with one event less', async () => {
    const machines = await renderMachines()
    const oneLess = machines.replace(/, `[a-z_]+` \|/, ' |')
    expect(oneLess).not.toBe(machines)
    const doc = withSection(readFileSync(DOC, 'utf8'), 'machines', oneLess)
    expect(section(doc, 'machines')).not.toBe(section(await expected(), 'machines'))
  })
})
