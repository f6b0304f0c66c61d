// The messenger's self-contained browser build (issue 45), for a page with no bundler and no import
// map: packages/messenger/dist/browser/, three ES modules a page loads with one
// `<script type="module" src=".../tandem-messenger.js">` under `script-src 'self'`:
//
//   tandem-messenger.js           the element, its launcher, core's client, realtime (partysocket),
//                                 ofetch, nanoevents: what the page loads
//   tandem-messenger-panel.js     the panel, imported on first open
//   tandem-messenger-markdown.js  the article renderer and marked, imported when an article opens
//   tandem-messenger-uploads.js   core's uploader and tus-js-client, imported with the first message
//                                 that has files (a page whose customers send none never loads it)
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
  uploads: 'tandem-messenger-uploads.js',
}

/** Which file a dynamic import() of the packages' dist goes to, by the path it names. */
const lazyFileOf = (path) =>
  path.endsWith('/uploads/send-files.js') ? 'uploads' : path.includes('/panel/') ? 'panel' : 'markdown'

/**
 * The element's `import('./panel/index.js')`, the panel's `import('../markdown/index.js')` and the
 * client's `import('./uploads/send-files.js')` (its uploader), pointed at the files beside. The
 * uploader's file has its own copy of the few core modules it shares with the client; the uploads
 * store is the client's (`client.uploadsSlot`), and core's error guards go by name, not class.
 */
const lazyFiles = {
  name: 'lazy-files',
  setup(b) {
    b.onResolve({ filter: /\/(panel|markdown)\/index\.js$|\/uploads\/send-files\.js$/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: `./${BROWSER_FILES[lazyFileOf(args.path)]}`, external: true }
        : undefined,
    )
  },
}

/** Builds dist/browser from the built dist of messenger, core, realtime and contract. */
export async function buildMessengerBrowser() {
  rmSync(BROWSER_DIR, { recursive: true, force: true })
  mkdirSync(BROWSER_DIR, { recursive: true })
  const sources = {
    entry: `${DIST}/standalone.js`,
    panel: `${DIST}/panel/index.js`,
    markdown: `${DIST}/markdown/index.js`,
    uploads: 'packages/core/dist/uploads/send-files.js',
  }
  await Promise.all(
    Object.entries(sources).map(([name, source]) =>
      build({
        entryPoints: [source],
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
