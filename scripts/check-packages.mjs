// Package hygiene for every published package: publint --strict and attw (ESM-only profile), then
// a consumer's app (test/consumer) type-checked against the built `dist` types with this
// repository's TypeScript and with the oldest one we support (5.4: `NoInfer` in the public types).
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import { published } from './pack-manifest.mjs'

const PACKAGES = [
  'contract',
  'server',
  'core',
  'elements',
  'realtime',
  'react',
  'messenger',
  'devtools',
  'next',
  'emulator',
]
const MIN_TYPESCRIPT = 'test/consumer/node_modules/typescript/bin/tsc'
/** A tool of this repository, run directly: `npx` costs a start of its own, a dozen times here. */
const BIN = (name) => `node_modules/.bin/${name}`
let failed = 0

/** Runs a command; its output is printed only if it fails. */
async function check(label, command, args) {
  try {
    await promisify(execFile)(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    console.log(`ok   ${label}`)
  } catch (error) {
    failed++
    console.error(`FAIL ${label}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
}

/** Runs the jobs as many at a time as the machine has cores: each is one busy thread. */
async function all(jobs) {
  const queue = [...jobs]
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job()
  }
  await Promise.all(Array.from({ length: availableParallelism() }, worker))
}

/**
 * Packs a copy of the package as npm would publish it (the manifest its prepack writes, the
 * LICENSE), into a folder of its own: `attw --pack` packed the working folder, whose prepack
 * rewrote the package.json that typecheck, lint and the tests read, so nothing could run beside it.
 */
async function packCopy(name) {
  const dir = mkdtempSync(join(tmpdir(), `tandem-pack-${name}-`))
  // Not the package's own node_modules (a path inside it, not the repository's location, decides).
  const inside = (src) => relative(`packages/${name}`, src).split(sep)
  cpSync(`packages/${name}`, dir, { recursive: true, filter: (src) => !inside(src).includes('node_modules') })
  const manifest = JSON.parse(readFileSync(`packages/${name}/package.json`, 'utf8'))
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(published(manifest), null, 2)}\n`)
  cpSync('LICENSE', join(dir, 'LICENSE'))
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  )
  return { dir, tarball: join(dir, JSON.parse(stdout)[0].filename) }
}

// Packages at once: publint reads the working folder, attw the packed copy.
await all(
  PACKAGES.map((name) => async () => {
    await check(`publint @tandem/${name}`, BIN('publint'), ['--strict', `packages/${name}`])
    let packed
    try {
      packed = await packCopy(name)
    } catch (error) {
      failed++
      return void console.error(`FAIL pack @tandem/${name}\n${error.stderr ?? error.message}`)
    }
    await check(`attw @tandem/${name}`, BIN('attw'), [
      packed.tarball,
      '--profile',
      'esm-only',
      '--format',
      'table-flipped',
    ])
    rmSync(packed.dir, { recursive: true, force: true })
  }),
)
// ofetch's declarations import `undici`, which ofetch does not depend on: a public type that
// reaches them breaks every consumer with skipLibCheck off (it broke CI once). Caught here by name,
// whatever happens to be hoisted into node_modules on this machine.
const LEAKY_TYPES = /from ['"](ofetch|partysocket)['"]/
for (const name of PACKAGES) {
  const dist = `packages/${name}/dist`
  const leaks = readdirSync(dist, { recursive: true })
    .filter((file) => String(file).endsWith('.d.ts'))
    .filter((file) => LEAKY_TYPES.test(readFileSync(join(dist, String(file)), 'utf8')))
  if (leaks.length === 0) console.log(`ok   @tandem/${name} public types import neither ofetch nor partysocket`)
  else {
    failed++
    console.error(`FAIL @tandem/${name} public types import ofetch or partysocket: ${leaks.join(', ')}`)
  }
}
// Incremental (the build info in node_modules/.cache/tsc/): a run whose declarations did not
// change checks nothing again (6 s each → 2 s); one whose did, checks what they reach.
const consumer = (info) => [
  '-p',
  'test/consumer',
  '--incremental',
  '--tsBuildInfoFile',
  `node_modules/.cache/tsc/${info}`,
]
await all([
  () => check('consumer types (TypeScript of this repo)', BIN('tsc'), consumer('consumer.tsbuildinfo')),
  () =>
    check('consumer types (TypeScript 5.4, the minimum)', 'node', [
      MIN_TYPESCRIPT,
      ...consumer('consumer-min.tsbuildinfo'),
    ]),
])
if (failed) process.exit(1)
