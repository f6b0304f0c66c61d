// "A budget for every new feature" (issue 28): every public entry point of the browser packages
// has a bench row (so a budget in `npm test`), and an app that does not import an optional entry
// ships none of its modules. Deterministic: esbuild bundles from `src`, nothing is timed.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types; the bench and this test share its entries.
import { BROWSER_PACKAGES, ENTRIES, NO_ROW, USE_CASES, measure } from '../bundle.mjs'

interface Row {
  entry: string
  source: string
  external: string[]
  budget: number
  base?: string
  owns?: string[]
  absentFrom?: string[]
}
interface UseCase {
  id: string
  name: string
  source: string
  external?: string[]
}
const rows = ENTRIES as Row[]
const noRow = NO_ROW as Record<string, string>
const conditions = ['@tandem/source']

const root = new URL('../../../', import.meta.url)
const packages = readdirSync(new URL('packages/', root)).map(
  (dir) =>
    JSON.parse(readFileSync(new URL(`packages/${dir}/package.json`, root), 'utf8')) as {
      name: string
      exports: Record<string, unknown>
    },
)
/** `@tandem/core` + `./maps` → `@tandem/core/maps`; `./package.json` is no entry point. */
const entryPoints = (pkg: (typeof packages)[number]) =>
  Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`))

describe('a bench row for every entry point', () => {
  it('every package is a browser package (one row per entry) or says why it has none', () => {
    const unaccounted = packages.map((p) => p.name).filter((n) => !BROWSER_PACKAGES.includes(n) && !noRow[n])
    expect(unaccounted, 'add the package to BROWSER_PACKAGES or NO_ROW in bench/src/bundle.mjs').toEqual([])
  })

  it("every public entry of a browser package has a row with a budget in bench/src/bundle.mjs's ENTRIES", () => {
    const wanted = packages.filter((p) => BROWSER_PACKAGES.includes(p.name)).flatMap(entryPoints)
    const missing = wanted.filter((e) => !noRow[e] && !rows.some((r) => r.entry === e))
    expect(missing, 'entry points without a bench row (CONTRIBUTING.md, "A budget for every new feature")').toEqual([])
    for (const r of rows) expect(r.budget, `${r.entry}'s budget`).toBeGreaterThan(0)
  })

  it('every row and every exemption names an entry point or package that exists', () => {
    const known = new Set([...packages.map((p) => p.name), ...packages.flatMap(entryPoints)])
    expect([...rows.map((r) => r.entry), ...Object.keys(noRow)].filter((e) => !known.has(e))).toEqual([])
  })

  it('each row is optional (its own modules, and the use cases that must not ship them) or says why it is not', () => {
    for (const r of rows) {
      const optional = Boolean(r.owns?.length && r.absentFrom?.length)
      expect(optional || Boolean(r.base), `${r.entry}: give it owns + absentFrom, or base: why`).toBe(true)
      for (const id of r.absentFrom ?? []) expect((USE_CASES as UseCase[]).map((u) => u.id)).toContain(id)
    }
  })
})

describe('an app that does not import an optional entry pays 0 bytes for it', () => {
  it.each(rows.filter((r) => r.owns))('$entry', async (row) => {
    const own = ([path, bytes]: [string, number]) => bytes > 0 && row.owns!.some((prefix) => path.startsWith(prefix))
    const alone = await measure(row.source, { external: row.external, conditions })
    // Else `owns` names no module of the entry, and the check below could never fail.
    expect(alone.modules.filter(own), `${row.entry}: owns matches none of its modules`).not.toEqual([])
    for (const id of row.absentFrom!) {
      const base = (USE_CASES as UseCase[]).find((u) => u.id === id)!
      const { modules } = await measure(base.source, { external: base.external, conditions })
      const paid = modules.filter(own).map(([path, bytes]: [string, number]) => `${path} ${bytes} bytes`)
      expect(paid, `${base.name} ships modules of ${row.entry}, which it does not import`).toEqual([])
    }
  })
})
