// `npm run dev`'s build step: the dev server runs the SDK from source in the browser, but its
// plugin (playground/tandem-plugin.ts) loads the emulator and the token handler from dist in
// Node. Rebuilding all six packages on every start took 10 s idle and ~40 s on a busy machine;
// this builds only what the plugin needs, and only when its dist is missing or older than src.
import { statSync } from 'node:fs'
import { build, newest } from './build.mjs'

// What the plugin imports in Node, in dependency order (emulator → server → contract).
const ORDER = ['contract', 'server', 'emulator']

let rebuilt = false
for (const name of ORDER) {
  const dir = `packages/${name}`
  const inputs = Math.max(newest(`${dir}/src`), statSync(`${dir}/package.json`).mtimeMs)
  // A package after a rebuilt one is rebuilt too: its declarations are checked against the new ones.
  // `build` is `npm run build`'s, incremental: it writes only what changed, so the newest file
  // of dist, not one file's date, says when dist was last brought up to date.
  if (!rebuilt && newest(`${dir}/dist`) >= inputs) continue
  await build(name)
  rebuilt = true
}
