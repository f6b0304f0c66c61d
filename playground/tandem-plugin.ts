import { createHash } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createEmulator, DEV_APP, type EmulatorCore, type EmulatorOptions } from '@tandem/emulator'
import { CUSTOMER_SCOPE } from '@tandem/contract'
import { createTokenHandler, toNodeListener } from '@tandem/server'
import type { Plugin, PreviewServer, ViteDevServer } from 'vite'

/** What the playground's user names may look like (`?user=ada`). Anything else gets a 400. */
export const USER_NAME = /^[A-Za-z0-9_-]{1,32}$/

/**
 * Who a request names, in the dev server's two name spaces: `?user=` an agent (the inbox, the chat),
 * `?customer=` a customer (customer.html). Agent bob and customer bob are two people.
 */
export type Principal = { kind: 'user' | 'customer'; name: string }

/**
 * A customer's token subject: `customer.<name>`. It is a CUSTOMER_ID (the contract's rule for a
 * customer id is unchanged) and never a USER_NAME (which has no dot), so a subject names one of the
 * two only, and the dev controls for one never reach the other.
 */
export const subjectOf = ({ kind, name }: Principal): string => (kind === 'customer' ? `customer.${name}` : name)

/** The principal of `?user=` or `?customer=` (exactly one, of the rule), or what to pass instead. */
export function principalOf(params: URLSearchParams): Principal | { refused: string } {
  const user = params.get('user')
  const customer = params.get('customer')
  const refused = 'Pass ?user=<name> or ?customer=<name> (letters, digits, _ and -).'
  if ((user === null) === (customer === null)) return { refused }
  const p: Principal = customer !== null ? { kind: 'customer', name: customer } : { kind: 'user', name: user! }
  return USER_NAME.test(p.name) ? p : { refused }
}

/** The key id the playground signs with; its secret never leaves this process. */
export const PLAYGROUND_KEY_ID = DEV_APP.keys[0]!.id

/**
 * The dev emulator keeps a day of chat: a tab opened after lunch still shows the morning's
 * messages. The emulator's own default (2 min, 1,000 per channel) is a service's short replay
 * window, right for tests and wrong for a demo a person comes back to.
 */
export const PLAYGROUND_HISTORY = { historyTtlMs: 24 * 60 * 60 * 1000, historySize: 10_000 } as const

export interface PlaygroundPluginOptions extends EmulatorOptions {
  /** Token lifetime in seconds (60 s – 24 h). Default 600. */
  ttlSeconds?: number
}

/**
 * Embeds the emulator (the three services, HTTP and the realtime WebSocket hub) and a demo
 * token endpoint in the Vite dev server, so the playground runs with no account and no network.
 * The key secret lives only here, in the dev server process: the browser gets short-lived
 * tokens from `/api/tandem-token`. `apply: 'serve'` (dev and `vite preview`): nothing of this
 * reaches `vite build`'s output.
 */
export function tandemEmulator(options: PlaygroundPluginOptions = {}): Plugin {
  return {
    name: 'tandem-emulator',
    apply: 'serve',
    configureServer: (server) => embed(server, options),
    // `vite preview` of a built playground gets the same services: the browser tests serve one
    // build to every file (e2e/global-setup.ts) instead of transforming modules per page load.
    configurePreviewServer: (server) => embed(server, options),
  }
}

type Host = Pick<ViteDevServer | PreviewServer, 'middlewares' | 'httpServer'>

function embed(server: Host, options: PlaygroundPluginOptions): void {
  const { ttlSeconds = 600, ...emulatorOptions } = options
  // Our own token endpoint is the only way in: the emulator's `/dev/token` (anyone, any subject) stays off.
  const emulator = createEmulator({
    devTokenEndpoint: false,
    ...emulatorOptions,
    realtime: { ...PLAYGROUND_HISTORY, ...emulatorOptions.realtime },
  })
  const key = DEV_APP.keys[0]!

  const tokens = createTokenHandler({
    appId: DEV_APP.appId,
    keyId: key.id,
    secret: key.secret,
    ttlSeconds,
    authorize: (request) => {
      // This is where your backend decides who the user is and what they may do. A real one
      // reads its own session, never a name the browser chose:
      //
      //   const session = await sessions.get(cookies(request).get('sid'))
      //   if (!session) return null                                  // → 401, the SDK stops asking
      //   return { subject: session.userId, scope: ['maps', 'support:read', `realtime:subscribe:chat:*`] }
      //
      // The playground has no sign-in: each tab names itself with `?user=` (a random name by
      // default) so that two tabs are two people in the chat.
      const p = principalOf(new URL(request.url).searchParams)
      if ('refused' in p) return { refuse: 401, message: p.refused }
      // The customer page (customer.html?customer=): a customer token sees only that customer's
      // own conversations and the published docs. A real backend takes the id from its session
      // too, and may add what it knows of the person (shown to agents as the conversation's customer).
      if (p.kind === 'customer')
        return {
          subject: subjectOf(p),
          scope: [CUSTOMER_SCOPE],
          profile: { name: displayName(p.name), email: `${p.name.toLowerCase()}@example.com` },
        }
      // The name the other agents (and a customer, "… is typing") see: the service shows this verified
      // one, never a name a browser put in its presence data.
      return { subject: subjectOf(p), scope: ['maps', 'support', 'realtime'], profile: { name: p.name } }
    },
  })
  server.middlewares.use('/api/tandem-token', toNodeListener(tokens))

  // Dev-only fault buttons of the Chat panel. A real backend has nothing like these.
  server.middlewares.use('/api/dev', (req, res, next) => devControls(emulator, req, res, next))

  server.middlewares.use((req, res, next) => emulator.handle(req, res, next))
  if (server.httpServer) emulator.attach(server.httpServer as Server)
}

/** `ada_lovelace` → `Ada Lovelace`: the name the agents see. */
const displayName = (id: string): string =>
  id
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')

/** How long the simulated 429 of the Maps panel asks clients to wait (its `Retry-After`). */
export const SIMULATED_RETRY_AFTER_S = 3

/** The chat's channel, and the most one flood may publish (the dev history keeps 10,000). */
export const FLOOD = { channel: 'chat:lobby', max: 10_000, batch: 200 } as const

/**
 * `count` messages into the chat from `flood-bot`: `rate` a second, or as fast as the server can
 * (`rate` 0) in batches that yield to the event loop, so the dev server keeps answering meanwhile.
 */
function flood(emulator: EmulatorCore, count: number, rate: number): void {
  let sent = 0
  const publish = (n: number) => {
    for (const end = Math.min(count, sent + n); sent < end;)
      emulator.realtime.publish(
        FLOOD.channel,
        'message',
        { text: `flood #${++sent} of ${count}` },
        { clientId: 'flood-bot' },
      )
  }
  if (rate === 0) {
    const step = () => {
      publish(FLOOD.batch)
      if (sent < count) setImmediate(step)
    }
    return step()
  }
  const started = performance.now()
  const timer = setInterval(() => {
    publish(Math.floor(((performance.now() - started) / 1000) * rate) - sent)
    if (sent >= count) clearInterval(timer)
  }, 25)
}

/**
 * `POST /api/dev/drop?user=` cuts that user's sockets (no close frame); `POST /api/dev/expire?user=`
 * revokes their tokens; `POST /api/dev/rate-limit?user=` answers the next maps request with a 429;
 * `POST /api/dev/flood?user=&count=1000&rate=0` publishes `count` chat messages (`rate` a second, 0: at once).
 * `?customer=` instead of `?user=` names a customer (customer.html): its own sockets and tokens only.
 * `GET /api/dev/push` lists the emulator's recorded push deliveries (the inbox's dev list).
 * `GET /api/dev/uploads?id=upl_…` tells what the service holds of an upload (the browser tests count
 * the bytes a resume sent again, and hash what was stored).
 */
function devControls(emulator: EmulatorCore, req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const who = principalOf(url.searchParams)
  const send = (status: number, body: unknown) => {
    res.statusCode = status
    res.setHeader('Content-Type', 'application/json')
    res.setHeader('Cache-Control', 'no-store')
    res.end(JSON.stringify(body))
  }
  if (url.pathname === '/push') {
    if (req.method !== 'GET') return send(405, { error: { code: 'method_not_allowed', message: 'Use GET.' } })
    return send(200, { deliveries: pushDeliveries(emulator) })
  }
  if (url.pathname === '/uploads') {
    if (req.method !== 'GET') return send(405, { error: { code: 'method_not_allowed', message: 'Use GET.' } })
    return void uploadState(emulator, url.searchParams.get('id') ?? '').then(
      (body) => send(200, body),
      () => send(500, { error: { code: 'internal_error', message: 'The upload could not be read.' } }),
    )
  }
  if (!['/drop', '/expire', '/rate-limit', '/flood'].includes(url.pathname)) return next()
  if (req.method !== 'POST') return send(405, { error: { code: 'method_not_allowed', message: 'Use POST.' } })
  if ('refused' in who) return send(400, { error: { code: 'invalid_parameter', message: who.refused } })
  if (url.pathname === '/rate-limit') {
    // The app's next maps request is refused, as when the plan's 100/min runs out: the SDK waits
    // out Retry-After, and the panel shows the wait (useRateLimit) until the retry succeeds.
    emulator.faults.rateLimitNext(1, { service: 'maps', retryAfterSeconds: SIMULATED_RETRY_AFTER_S })
    return send(200, { retryAfterSeconds: SIMULATED_RETRY_AFTER_S })
  }
  if (url.pathname === '/flood') {
    const count = Number(url.searchParams.get('count') ?? 1000)
    const rate = Number(url.searchParams.get('rate') ?? 0)
    if (!(Number.isInteger(count) && count >= 1 && count <= FLOOD.max && Number.isFinite(rate) && rate >= 0))
      return send(400, {
        error: {
          code: 'invalid_parameter',
          message: `count: 1 to ${FLOOD.max}; rate: messages a second, 0 for at once.`,
        },
      })
    flood(emulator, count, rate)
    return send(202, { flooding: count, rate })
  }
  if (url.pathname === '/drop') {
    // A raw TCP destroy: the browser sees an abnormal close (1006), as when Wi-Fi drops.
    return send(200, { dropped: emulator.realtime.dropConnections({ subject: subjectOf(who), raw: true }) })
  }
  // Every token of the subject issued so far is refused from now on: its sockets close with 4102
  // and the client fetches a fresh token from /api/tandem-token, then resumes.
  return send(200, { revoked: emulator.realtime.revoke(subjectOf(who)) })
}

/** The newest recorded deliveries shown by the dev list. */
const PUSH_SHOWN = 50

/**
 * The emulator's recorded push deliveries, newest first, as the dev list shows them: never a
 * subscription's keys, and of its endpoint (a capability URL) only the push service's origin.
 */
function pushDeliveries(emulator: EmulatorCore) {
  return emulator.push
    .deliveries()
    .slice(-PUSH_SHOWN)
    .reverse()
    .map((d) => {
      const service = new URL(d.endpoint).origin
      return {
        id: d.id,
        at: d.at,
        kind: d.kind,
        subject: d.subject,
        messageId: d.messageId,
        conversationId: d.conversationId,
        status: d.status,
        httpStatus: d.httpStatus ?? null,
        error: d.error?.replaceAll(d.endpoint, service) ?? null,
        title: d.payload.title,
        service,
      }
    })
}

/**
 * One upload as the service holds it: its record (owner, offset, complete, attachedTo), the PATCH
 * bytes it has read in all (`received`: more than `size` by what resumes sent again) and the stored
 * bytes' SHA-256. Ids only (an id is no secret here: a dev server, the tests' own uploads).
 */
async function uploadState(emulator: EmulatorCore, id: string) {
  const upload = emulator.uploads.get(id)
  if (!upload) return { upload: null, received: 0, sha256: null }
  const bytes = await emulator.uploads.bytes(id)
  const sha256 = bytes ? createHash('sha256').update(bytes).digest('hex') : null
  return { upload, received: emulator.uploads.received(id), sha256 }
}
