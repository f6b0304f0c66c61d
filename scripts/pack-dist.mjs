// `npm pack` / `npm publish` of a package never ships a missing or stale dist (issue 45, row 8):
// its prepack (scripts/pack-manifest.mjs) calls `ensureDist` first. It builds the package, and the
// @tandem packages it depends on before it, when a dist lacks an output of a source or is older than
// the source; when the build fails, the pack is refused with tsc's errors: no tarball is written.
// (`package.json` is not an input here: the pack itself rewrites it.)
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build, builtAt, distComplete, newest } from './build.mjs'

const ROOT = resolve(import.meta.dirname, '..')

/** The @tandem packages of this repository by name (`@tandem/core` → `core`), with their manifests. */
function workspace() {
  const packages = new Map()
  for (const folder of readdirSync(join(ROOT, 'packages'))) {
    try {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'))
      packages.set(manifest.name, { folder, manifest })
    } catch {
      // not a package folder
    }
  }
  return packages
}

/** `name`'s folder after the folders of every @tandem package it depends on: the order to build them in. */
export function buildOrder(name, packages = workspace()) {
  const order = []
  const visit = (n) => {
    const p = packages.get(n)
    if (!p || order.includes(p.folder)) return
    const { dependencies = {}, peerDependencies = {} } = p.manifest
    for (const dep of Object.keys({ ...dependencies, ...peerDependencies })) visit(dep)
    order.push(p.folder)
  }
  visit(name)
  return order
}

/** Why `folder`'s dist cannot be packed as it is, or undefined when it can. */
export function staleness(folder) {
  if (!distComplete(folder)) return 'dist is missing or lacks the output of a source'
  if (builtAt(folder) < newest(`packages/${folder}/src`)) return 'dist is older than src'
  return undefined
}

/** Brings the dist of the package in `dir` (and of its @tandem dependencies) up to date, or exits 1 saying why not. */
export async function ensureDist(dir) {
  const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const back = process.cwd()
  const log = console.log
  process.chdir(ROOT) // build.mjs works from the repository's root
  console.log = console.error // stdout is npm pack's own (`--json` prints the tarball's files there)
  try {
    let rebuilt = false
    for (const folder of buildOrder(name)) {
      const why = rebuilt ? 'a package it depends on was rebuilt' : staleness(folder)
      if (!why) continue
      console.error(`prepack ${name}: building @tandem/${folder} (${why})`)
      await build(folder)
      rebuilt = true
    }
  } catch (error) {
    console.error(
      `npm pack refused: ${name} would ship without an up-to-date dist, and it did not build.\n${error.message}`,
    )
    process.exit(1)
  } finally {
    console.log = log
    process.chdir(back)
  }
}
