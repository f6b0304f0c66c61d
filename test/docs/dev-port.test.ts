// The README's two ways to pick the playground's port (issue 45, row 6): `PORT=5501 npm run dev`
// and `npm run dev -- --port 5501`, run as written from the repository's root. Before, the flag
// reached npm instead of Vite (`vite 5501`: the number taken for the root, served on 5173 without
// the playground's config) and PORT was not read at all.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ROOT } from './snippets.js'
import { during, slack } from '../utils/wait.js'
import { freePort } from '../utils/http-server.js'

/** Its own Vite cache: a dev server of the e2e project may be optimizing the playground's deps at the same time. */
const DIR = join(ROOT, 'node_modules', '.cache', 'tandem-dev-port')
const CONFIG = join(DIR, 'vite.config.mjs')
const START = Math.max(60_000, slack(20_000))

/** Waits until no process of the group `pid` is left (Vite outlives npm by its shutdown); SIGKILL after a bounded wait. */
async function groupGone(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0)
      return true
    } catch {
      return false // ESRCH: the whole group has exited
    }
  }
  const waitFor = async (ms: number) => {
    const deadline = Date.now() + ms
    while (alive() && Date.now() < deadline) await during(50)
  }
  await waitFor(slack(5_000))
  if (!alive()) return
  process.kill(-pid, 'SIGKILL')
  // Bounded: a zombie nobody reaps still answers kill(0) (the removal's retries cover the rest).
  await waitFor(slack(2_000))
}

let child: ChildProcess | undefined
let output = ''

/** `npm run dev` with these arguments and environment, in its own process group (npm, sh, npm, vite). */
function dev(args: string[], env: Record<string, string> = {}): ChildProcess {
  output = ''
  child = spawn('npm', ['run', 'dev', ...args], { cwd: ROOT, env: { ...process.env, ...env }, detached: true })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  return child
}

/** The page at `url` once it answers (the process may still be building or starting), or a failure with its output. */
async function page(url: string, started: ChildProcess): Promise<string> {
  const deadline = Date.now() + START
  while (Date.now() < deadline) {
    if (started.exitCode !== null) throw new Error(`npm run dev exited (${started.exitCode}):\n${output}`)
    const text = await fetch(url).then(
      (r) => (r.ok ? r.text() : undefined),
      () => undefined,
    )
    if (text !== undefined) return text
    await during(200)
  }
  throw new Error(`nothing answered at ${url} within ${START} ms; npm run dev printed:\n${output}`)
}

/** The page is the playground's, and its dev server is the playground's (its token endpoint answers). */
async function expectPlayground(port: number, started: ChildProcess) {
  const origin = `http://127.0.0.1:${port}`
  expect(await page(`${origin}/`, started)).toContain('<title>Tandem playground</title>')
  // No session cookie: the embedded token endpoint (playground/tandem-plugin.ts) refuses, as it should.
  const token = await fetch(`${origin}/api/tandem-token`, { method: 'POST' })
  expect(token.status).toBe(401)
}

describe('the playground on a port of your choice', () => {
  mkdirSync(DIR, { recursive: true })
  // The playground's own config, with the cache moved aside (the config file passes through as a flag too).
  writeFileSync(
    CONFIG,
    [
      `import config from ${JSON.stringify(join(ROOT, 'playground', 'vite.config.ts'))}`,
      `export default (env) => ({ ...config(env), cacheDir: ${JSON.stringify(join(DIR, 'vite'))} })`,
      '',
    ].join('\n'),
  )

  afterEach(async () => {
    const running = child
    child = undefined
    if (!running?.pid || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    process.kill(-running.pid, 'SIGTERM')
    await exited
    await groupGone(running.pid)
  })
  // Vite, a grandchild of npm, may still be writing its cache as it shuts down after npm has exited
  // (ENOTEMPTY, twice in a row once the playground's worker had push): the group is waited for above,
  // and Node retries the removal rather than failing the file.
  afterAll(() => rmSync(DIR, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }))

  it(
    'npm run dev -- --port N serves the playground on N',
    async () => {
      const port = await freePort()
      await expectPlayground(port, dev(['--', '--port', String(port), '--config', CONFIG]))
    },
    START + 10_000,
  )

  it(
    'PORT=N npm run dev serves the playground on N',
    async () => {
      const port = await freePort()
      await expectPlayground(port, dev(['--', '--config', CONFIG], { PORT: String(port) }))
    },
    START + 10_000,
  )
})
