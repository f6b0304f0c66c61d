// `npm run dev`'s build step: the dev server runs the SDK from source in the browser, but its
// plugin (playground/tandem-plugin.ts) loads the emulator and the token handler from dist in
// Node. Rebuilding all six packages on every start took 10 s idle and ~40 s on a busy machine;
// this builds only what the plugin needs, and only when its dist is missing or older than src.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

// What the plugin imports in Node, in dependency order (emulator → server → contract).
const ORDER = ['contract', 'server', 'emulator']

/** The newest modification time (ms) of any file under `dir`. */
function newest(dir) {
  let max = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return max
}

let rebuilt = false
for (const name of ORDER) {
  const dir = `packages/${name}`
  const stamp = `${dir}/dist/index.js`
  const inputs = Math.max(newest(`${dir}/src`), statSync(`${dir}/package.json`).mtimeMs)
  // A package after a rebuilt one is rebuilt too: its declarations are checked against the new ones.
  const stale = rebuilt || !existsSync(stamp) || statSync(stamp).mtimeMs < inputs
  if (!stale) continue
  rmSync(`${dir}/dist`, { recursive: true, force: true })
  execFileSync('npx', ['tsc', '-p', `${dir}/tsconfig.build.json`], { stdio: 'inherit' })
  console.log(`built @tandem/${name} (its dist was missing or older than src)`)
  rebuilt = true
}
