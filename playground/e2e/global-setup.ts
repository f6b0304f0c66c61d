// One build of the playground for every browser test file. On the dev server each new page (a
// fresh browser context, an empty cache) fetched and Vite transformed some hundred modules; the
// files open a few hundred pages. A build loads as a few files. It is a development build
// (NODE_ENV=development, unminified): React's dev checks and the SDK's full error sentences stay on,
// as on `npm run dev`. playground.test.ts still runs on the dev server, which is what `npm run dev` serves.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
// @ts-expect-error: plain ESM module without types.
import { buildStale } from '../../scripts/build.mjs'

/** Where the build goes; the harness's preview servers serve it. */
export const E2E_DIST = fileURLToPath(new URL('../../node_modules/.cache/tandem-e2e/', import.meta.url))

export default async function setup(): Promise<void> {
  await Promise.all([
    build(['--mode', 'development', '--minify', 'false', '--outDir', E2E_DIST], 'development'),
    // The packages' dist, for the pages that load it without a bundler (no-bundler.test.ts) and
    // the messenger's browser build (messenger-plain-page.test.ts): built when older than src.
    buildStale(['contract', 'core', 'elements', 'realtime', 'react', 'messenger', 'devtools']),
  ])
}

/**
 * A production build, as `npm run build -w playground` makes it (minified, no dev controls, with
 * the app-shell service worker), into `outDir`: for the few files that test what only it has
 * (the harness's `serve: 'production'`). About 4 s, so each such file builds its own.
 */
export async function buildProduction(outDir: string): Promise<void> {
  await build(['--outDir', outDir], 'production')
}

async function build(args: string[], nodeEnv: 'development' | 'production'): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js')
  const root = fileURLToPath(new URL('..', import.meta.url))
  await promisify(execFile)(process.execPath, [vite, 'build', ...args, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: nodeEnv },
    maxBuffer: 16 * 1024 * 1024,
  })
}
