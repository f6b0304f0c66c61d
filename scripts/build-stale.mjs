// `npm run dev`'s build step: the dev server runs the SDK from source in the browser, but its
// plugin (playground/tandem-plugin.ts) loads the emulator and the token handler from dist in
// Node. Rebuilding all six packages on every start took 10 s idle and ~40 s on a busy machine;
// this builds only what the plugin needs, and only when its dist is missing or older than src.
import { buildStale } from './build.mjs'

// What the plugin imports in Node, in dependency order (emulator → server → contract).
await buildStale(['contract', 'server', 'emulator'])
