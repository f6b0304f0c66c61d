// `next build` and `next start` of an app, with the repository's Next (the app resolves `next`
// from the repository's node_modules): what `npm run build` and `npm start` run in a fresh app.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../utils/http-server.js'

const nextBin = (app: string) => createRequire(join(app, 'package.json')).resolve('next/dist/bin/next')

/** A user's shell: Vitest's NODE_ENV=test is not theirs (Next.js sets its own per command). */
function shell(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _, ...rest } = process.env
  return { ...rest, ...env, NEXT_TELEMETRY_DISABLED: '1' }
}

/** `next build`; resolves with what it printed, rejects with it (the error Next printed) if it fails. */
export async function nextBuild(app: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [nextBin(app), 'build'], {
      cwd: app,
      env: shell(env),
      maxBuffer: 16 * 1024 * 1024,
    })
    return stdout + stderr
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`next build failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`, { cause: error })
  }
}

export interface NextServer {
  url: string
  /** What it printed so far (request-time errors go there). */
  output: () => string
  close: () => Promise<void>
}

/** `next start` on a free port of 127.0.0.1; resolves once it answers (at most `timeoutMs`). */
export async function nextStart(app: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<NextServer> {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [nextBin(app), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env: shell(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const url = `http://127.0.0.1:${port}`
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`)
    try {
      await fetch(`${url}/icon.svg`, { signal: AbortSignal.timeout(2_000) })
      return { url, output: () => output, close }
    } catch {
      if (Date.now() > deadline) {
        await close()
        throw new Error(`next start did not answer at ${url} in ${timeoutMs} ms:\n${output}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}
