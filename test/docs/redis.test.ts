// The Redis snippets of the docs, run as written in a process of their own against a real
// redis-server that is then killed (kill -9) and started again (issue 27, fault 2): the process
// stays up, deliveries answer 503 (retryable) while Redis is gone, and are handled once it is back.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { afterEach, describe, expect, it } from 'vitest'
import { signWebhook } from '@tandem/server'
import { hasRedis, startRedis, type RedisServer } from '../../packages/server/src/__tests__/redis-server.js'
import { during, waitUntil } from '../utils/wait.js'
import { extract, ROOT, type Snippet } from './snippets.js'

const SECRET = 'whsec_docs_redis_5b7d9f1a3c5e7a9b1d3f'
// Outside test/docs/.generated (docs.test.ts rewrites it) but inside the repo, so the snippet's
// imports resolve to the workspace's packages (built: run as an app runs them, from dist).
const DIR = join(ROOT, '.tmp', 'docs-redis')

/** Every block that builds the Redis store, where a reader copies it from. */
const blocks: Snippet[] = ['docs/webhooks.md', 'packages/server/README.md'].flatMap((file) =>
  extract(file).filter((s) => s.code.includes('createRedisReplayStore({ client')),
)

/** The block as JavaScript, and a server that mounts its `POST` with `toNodeListener`. */
function write(s: Snippet): string {
  mkdirSync(DIR, { recursive: true })
  const slug = s.id.replace(/[^\w]+/g, '-')
  const js = ts.transpileModule(s.code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText
  writeFileSync(join(DIR, `${slug}.mjs`), js)
  const harness = join(DIR, `${slug}.server.mjs`)
  writeFileSync(
    harness,
    [
      "import { createServer } from 'node:http'",
      "import { toNodeListener } from '@tandem/server'",
      'globalThis.notifyAgents = async () => {} // the app function a fragment calls',
      `const { POST } = await import('./${slug}.mjs')`,
      'const server = createServer(toNodeListener(POST))',
      "server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`))",
      '',
    ].join('\n'),
  )
  return harness
}

describe.runIf(hasRedis)('the Redis snippets, run with Redis killed', () => {
  let redis: RedisServer | undefined
  let child: ChildProcess | undefined
  afterEach(async () => {
    child?.kill('SIGKILL')
    await redis?.kill()
  })

  it('finds the snippets, each with an error listener', () => {
    expect(blocks.map((s) => s.file)).toEqual(['docs/webhooks.md', 'packages/server/README.md'])
    for (const s of blocks) expect(s.code, s.id).toMatch(/\.on\('error'/)
  })

  it.each(blocks.map((s) => [s.id, s] as const))(
    '%s: kill -9 of Redis, the process stays up, 503 meanwhile, handled once Redis is back',
    async (_, s) => {
      redis = await startRedis()
      let output = ''
      const proc = spawn(process.execPath, [write(s)], {
        env: { ...process.env, REDIS_URL: redis.url, TANDEM_WEBHOOK_SECRET: SECRET },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child = proc
      proc.stdout.on('data', (chunk: Buffer) => void (output += String(chunk)))
      proc.stderr.on('data', (chunk: Buffer) => void (output += String(chunk)))
      const alive = () => proc.exitCode === null && proc.signalCode === null
      await waitUntil(() => /listening \d+/.test(output) || !alive(), { timeoutMs: 10_000, what: 'the server' })
      expect(alive(), output).toBe(true)
      const url = `http://127.0.0.1:${/listening (\d+)/.exec(output)![1]}/hooks`
      let n = 0
      const deliver = async () => {
        const body = JSON.stringify({ id: `evt_docs_redis_${++n}`, type: 'conversation.created', data: {} })
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'tandem-signature': await signWebhook(body, SECRET) },
          body,
        })
        return `${response.status} ${response.status === 200 ? '' : ((await response.json()) as { error: { code: string } }).error.code}`.trim()
      }

      expect(await deliver()).toBe('200')
      await redis.kill() // SIGKILL
      expect(await deliver()).toBe('503 replay_store_unavailable')
      await during(300) // the client's reconnect attempts fail meanwhile, each an `error` event
      expect(alive(), output).toBe(true)
      expect(output).toMatch(/Redis/) // the snippet's listener (or the store's) said so: not silent
      await redis.start()
      const restarted = performance.now()
      // The sender's retries, one at a time, until one is handled.
      const deadline = Date.now() + 15_000
      let last = await deliver()
      while (last !== '200' && Date.now() < deadline) {
        await during(200)
        last = await deliver()
      }
      expect(last).toBe('200')
      console.info(
        `[docs-redis] ${s.id}: handled ${Math.round(performance.now() - restarted)} ms after Redis restarted`,
      )
      expect(alive(), output).toBe(true)
    },
  )
})
