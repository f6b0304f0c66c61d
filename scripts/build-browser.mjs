// The messenger's self-contained browser build (issue 45), for a page with no bundler and no import
// map: packages/messenger/dist/browser/, three ES modules a page loads with one
// `<script type="module" src=".../tandem-messenger.js">` under `script-src 'self'`:
//
//   tandem-messenger.js           the element, its launcher, core's client, realtime (partysocket),
//                                 ofetch, nanoevents: what the page loads
//   tandem-messenger-panel.js     the panel, imported on first open
//   tandem-messenger-markdown.js  the article renderer and marked, imported when an article opens
//
// Bundled by esbuild from the packages' dist (what npm ships), minified, for production: the
// `production` export condition and NODE_ENV fold every development sentence away, so errors are
// the short typed ones. Each file is a bundle of its own whose import() names the next file
// beside it: esbuild's code splitting would move the few stateless helpers the element and the
// panel share (the DOM builder) into a fourth file that the page would load at once. No classic
// (IIFE) build: every browser the element runs in (custom elements, shadow DOM, constructed
// stylesheets) runs module scripts, which `script-src 'self'` allows as it allows classic ones.
import { build } from 'esbuild'
import { mkdirSync, rmSync } from 'node:fs'

const DIST = 'packages/messenger/dist'
export const BROWSER_DIR = `${DIST}/browser`
export const BROWSER_FILES = {
  entry: 'tandem-messenger.js',
  panel: 'tandem-messenger-panel.js',
  markdown: 'tandem-messenger-markdown.js',
}

/** The element's `import('./panel/index.js')` and the panel's `import('../markdown/index.js')`, pointed at the files beside. */
const lazyFiles = {
  name: 'lazy-files',
  setup(b) {
    b.onResolve({ filter: /\/(panel|markdown)\/index\.js$/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: `./${BROWSER_FILES[args.path.includes('/panel/') ? 'panel' : 'markdown']}`, external: true }
        : undefined,
    )
  },
}

/** Builds dist/browser from the built dist of messenger, core, realtime and contract. */
export async function buildMessengerBrowser() {
  rmSync(BROWSER_DIR, { recursive: true, force: true })
  mkdirSync(BROWSER_DIR, { recursive: true })
  const sources = { entry: 'standalone.js', panel: 'panel/index.js', markdown: 'markdown/index.js' }
  await Promise.all(
    Object.entries(sources).map(([name, source]) =>
      build({
        entryPoints: [`${DIST}/${source}`],
        outfile: `${BROWSER_DIR}/${BROWSER_FILES[name]}`,
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        conditions: ['production'],
        define: { 'process.env.NODE_ENV': '"production"' },
        legalComments: 'eof',
        logLevel: 'warning',
        plugins: [lazyFiles],
      }),
    ),
  )
}
