// Hostile peers: what a misbehaving service can make Tandem do, measured with default options.
// - Realtime: a hand-written server closes (or stalls) in each loop-inducing way; each client runs
//   for WINDOW_MS and we count connections and token fetches (target: the backoff schedule, under
//   2 connections/s after the third attempt).
// - REST: calls with timeoutMs 2000 against a 429 with a huge Retry-After and a trickling token
//   endpoint (target: settled by timeoutMs + 50 ms).
// - Memory: a 50 MB answer read in a fresh process (target: peak RSS under 100 MB).
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { CLOSE, MAX_MESSAGE_BYTES } from '@tandem/contract'
import { createClient } from '@tandem/core'
import { createRealtime } from '@tandem/realtime'
import WebSocket, { WebSocketServer } from 'ws'
import { fmt, table } from './stats.mjs'

const WINDOW_MS = Number(process.env.HOSTILE_WINDOW_MS ?? 30_000)
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))

/** A realtime server that answers `connect` with `connected` (fields overridden) and then does `after`. */
async function realtimeServer(fields, after) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => wss.once('listening', resolve))
  const stats = { connections: [], refreshes: 0 }
  wss.on('connection', (socket) => {
    stats.connections.push(performance.now())
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw))
      if (frame.type === 'connect') {
        socket.send(
          JSON.stringify({
            type: 'connected',
            id: frame.id,
            connectionId: 'c',
            heartbeatMs: 60_000,
            maxMessageBytes: MAX_MESSAGE_BYTES,
            expiresIn: 600,
            ...fields,
          }),
        )
        after?.(socket)
      } else if (frame.type === 'auth') {
        stats.refreshes++
        socket.send(JSON.stringify({ type: 'authed', id: frame.id, expiresIn: 0 }))
      } else if (frame.type === 'subscribe')
        socket.send(JSON.stringify({ type: 'subscribed', id: frame.id, channels: [] }))
    })
  })
  return {
    url: `http://127.0.0.1:${wss.address().port}/realtime`,
    stats,
    close: () => new Promise((r) => wss.close(r)),
  }
}

async function loop(name, fields, after) {
  const server = await realtimeServer(fields, after)
  let tokens = 0
  const rt = createRealtime(
    { auth: { fetchToken: async () => (tokens++, { token: `t${tokens}`, expiresIn: 600 }) }, url: server.url },
    { WebSocket },
  )
  const started = performance.now()
  rt.connect()
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
  rt.close()
  await server.close()
  const times = server.stats.connections
  const seconds = WINDOW_MS / 1000
  // Past the third attempt, the backoff's ceiling is 4 s: well under 2 per second from there on.
  const late = times.length > 3 ? (times.length - 3) / ((started + WINDOW_MS - times[2]) / 1000) : 0
  return [
    name,
    String(times.length),
    fmt(times.length / seconds, 2),
    fmt(late, 2),
    String(tokens),
    fmt(tokens / seconds, 2),
    String(server.stats.refreshes),
  ]
}

async function rest() {
  const rows = []
  const timed = async (p) => {
    const t = performance.now()
    const e = await p.then(
      () => undefined,
      (x) => x,
    )
    return { ms: performance.now() - t, name: e?.name ?? 'ok' }
  }
  for (const [name, retryAfter] of [
    ['after a 429 with Retry-After: 99999', '99999'],
    ['after a 429 with Retry-After: (a date in 2100)', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ]) {
    let n = 0
    const server = createServer((_req, res) => {
      const first = ++n === 1
      res.writeHead(first ? 429 : 200, {
        'content-type': 'application/json',
        ...(first ? { 'retry-after': retryAfter } : {}),
      })
      res.end(first ? '{"error":{"code":"rate_limited"}}' : '{"data":[],"nextCursor":null}')
    })
    const url = `http://127.0.0.1:${await listen(server)}`
    const client = createClient({
      baseUrl: url,
      auth: { fetchToken: async () => ({ token: 't', expiresIn: 600 }) },
      retry: { limit: 0 },
    })
    await client.support.resources.list().catch(() => {})
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => timed(client.support.resources.list({}, { timeoutMs: 2_000 }))),
    )
    rows.push([name, '2000', fmt(Math.max(...runs.map((r) => r.ms))), [...new Set(runs.map((r) => r.name))].join(', ')])
    server.close()
  }
  const tokens = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const t = setInterval(() => res.write(' '), 200)
    res.on('close', () => clearInterval(t))
  })
  const service = createServer((_req, res) => res.end('{"data":[],"nextCursor":null}'))
  const [tokenPort, servicePort] = await Promise.all([listen(tokens), listen(service)])
  const client = createClient({
    baseUrl: `http://127.0.0.1:${servicePort}`,
    auth: { url: `http://127.0.0.1:${tokenPort}/token` },
  })
  const runs = await Promise.all(
    Array.from({ length: 5 }, () => timed(client.maps.resources.list({}, { timeoutMs: 2_000 }))),
  )
  rows.push([
    'a token endpoint that trickles bytes',
    '2000',
    fmt(Math.max(...runs.map((r) => r.ms))),
    [...new Set(runs.map((r) => r.name))].join(', '),
  ])
  tokens.closeAllConnections()
  tokens.close()
  service.close()
  return rows
}

async function rss() {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    let sent = 0
    const pump = () => {
      while (sent < 50e6 && !res.destroyed) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
    }
    pump()
  })
  const url = `http://127.0.0.1:${await listen(server)}`
  const dir = mkdtempSync(join(tmpdir(), 'tandem-rss-'))
  const script = join(dir, 'client.mjs')
  const core = new URL('../../packages/core/dist/index.js', import.meta.url).href
  writeFileSync(
    script,
    `import { createClient } from ${JSON.stringify(core)}
     const c = createClient({ baseUrl: process.argv[2], auth: { fetchToken: async () => ({ token: 't', expiresIn: 600 }) }, retry: false })
     const e = await c.support.resources.list().catch((x) => x)
     console.log(JSON.stringify({ code: e?.code, rss: process.resourceUsage().maxRSS / 1024 }))`,
  )
  const run = promisify(execFile)
  const { stdout } = await run(process.execPath, [script, url])
  const bare = await run(process.execPath, ['-e', 'console.log(process.resourceUsage().maxRSS / 1024)'])
  server.close()
  return { ...JSON.parse(stdout), bare: Number(bare.stdout) }
}

export async function run() {
  const loops = await Promise.all([
    loop('close 4290, retryAfterMs 0, right after connected', {}, (s) =>
      s.close(CLOSE.rate_limited, '{"code":"rate_limited","retryAfterMs":0}'),
    ),
    loop('close 4290, retryAfterMs 1e12', {}, (s) =>
      s.close(CLOSE.rate_limited, '{"code":"rate_limited","retryAfterMs":1e12}'),
    ),
    loop('close 4290, retryAfterMs 1e400 (Infinity)', {}, (s) =>
      s.close(CLOSE.rate_limited, '{"code":"rate_limited","retryAfterMs":1e400}'),
    ),
    loop('close 4100 right after every connected', {}, (s) => s.close(CLOSE.token_expired, '{"code":"token_expired"}')),
    loop('connected and authed with expiresIn 0', { expiresIn: 0 }),
    loop('heartbeatMs 0, and no heartbeat', { heartbeatMs: 0 }),
  ])
  const deadlines = await rest()
  const memory = await rss()
  return {
    title: `Hostile peers (default options; realtime loops over ${WINDOW_MS / 1000} s each, in parallel)`,
    body: [
      table(
        [
          'server behaviour',
          'connections',
          'per s',
          'per s after the 3rd',
          'token fetches',
          'per s',
          'in-band refreshes',
        ],
        loops,
      ),
      'Target: the backoff schedule (full jitter, 0.5 s doubling to 20 s): under 2 connections per second after the third attempt. ' +
        'A 1e12 `retryAfterMs` is capped at `backoff.serverMaxMs` (5 min): one reconnect at most in the window. ' +
        'Before the fix (issue "Hostile peers"): 688 connections in 5 s on the first line, 664 on the fourth, and 1,255–2,355 token fetches in 5 s on the fifth.',
      table(['call with timeoutMs 2000', 'timeoutMs', 'worst settled after (ms)', 'failed with'], deadlines),
      'Target: settled by `timeoutMs` + 50 ms. Before: 60 s (the service pause) and 30 s (three token attempts of 10 s).',
      `A 50 MB answer in a fresh Node process: **${memory.code}**, peak RSS **${fmt(memory.rss, 1)} MiB** (a bare \`node -e ""\` is ${fmt(memory.bare, 1)} MiB). Target: under 100 MB. Before: 315 MB.`,
    ].join('\n\n'),
  }
}
