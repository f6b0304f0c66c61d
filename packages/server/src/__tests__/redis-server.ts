// A real redis-server (Debian's package) for the tests, on a free port of 127.0.0.1, with no
// persistence. Where it is not installed locally the tests that need it are skipped, saying so;
// `.ci/run` installs it, so CI always runs them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { freePort } from '../../../../test/utils/http-server.js'

const BINARY = process.env.REDIS_SERVER ?? 'redis-server'

/** Whether a redis-server can be started here (checked once). */
export const hasRedis = spawnSync(BINARY, ['--version'], { stdio: 'ignore' }).status === 0
// CI must not skip them quietly: `.ci/run` sets TANDEM_REQUIRE_REDIS.
if (!hasRedis && process.env.TANDEM_REQUIRE_REDIS)
  throw new Error(`${BINARY} is required (TANDEM_REQUIRE_REDIS) but not found`)
if (!hasRedis)
  console.warn(
    `[redis] ${BINARY} not found: the Redis replay store tests are skipped (apt-get install -y redis-server)`,
  )

export interface RedisServer {
  port: number
  url: string
  /** Stops it (SIGKILL: a crash, not a shutdown). */
  kill: () => Promise<void>
  /** Starts it again on the same port, empty. */
  start: () => Promise<void>
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const proc = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = proc
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5_000)
      proc.stdout?.on('data', (chunk: Buffer) => {
        if (!String(chunk).includes('Ready to accept connections')) return
        clearTimeout(timer)
        resolve()
      })
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${String(code)}`))
      })
    })
  }
  const kill = async () => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null) return
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill('SIGKILL')
    await exited
  }
  await start()
  return { port, url: `redis://127.0.0.1:${port}`, kill, start }
}
