// Who may do what, for every REST operation of the contract and every kind of channel: two
// customers (A and B), an agent and a read-only agent, over real HTTP and WebSocket. An
// operation of the OpenAPI document without a row here fails the test, so a route added later
// must say who may call it.
import { CUSTOMER_SCOPE, customerChannelName, resourcePresenceChannel } from '@tandem/contract'
import { openapi } from '@tandem/contract/spec'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { call, useEmulator, type ErrorJson } from './helpers.js'
import { TestSocket, type Frame } from './realtime-helpers.js'
import { browserSubscription } from '../../../../test/utils/push-receiver.js'

const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })

type Who = 'A' | 'B' | 'agent' | 'readOnly'
/** Run in this order, so an agent's delete comes after everyone else has tried the resource. */
const WHO: Who[] = ['A', 'B', 'readOnly', 'agent']
/** A status, or a status and the error code it must carry. */
type Expected = number | [number, string]

interface Row {
  method: string
  path: string
  body?: unknown
  expect: Record<Who, Expected>
}

const tokens = {} as Record<Who, string>
/** A's seeded conversation, a published and a draft article, A's and B's channels. */
let [aConversation, article, draft, aChannel, bChannel] = ['', '', '', '', '']

const NO = [403, 'insufficient_scope'] as const satisfies Expected
const nobody = { A: NO, B: NO, readOnly: NO, agent: NO }
/** Agent-only routes: a customer is refused whatever its scope. */
const agents = (read: boolean, ok = 200) => ({ A: NO, B: NO, readOnly: read ? 200 : NO, agent: ok })
/** The customer's own routes: A on A's conversation, B on it (a 404, as if it did not exist). */
const mine = (ok: number, bOnA: boolean) => ({
  A: ok,
  B: (bOnA ? [404, 'not_found'] : ok) as Expected,
  readOnly: NO,
  agent: NO,
})
const everyone = { A: 200, B: 200, readOnly: 200, agent: 200 }
const each = (expected: Expected) => ({ A: expected, B: expected, readOnly: expected, agent: expected })
const PUSH_404 = [404, 'push_subscription_not_found'] as const satisfies Expected
const push = '/realtime/v1/push/subscriptions'
const UPLOAD = 'upl_0000000000000000nope'
const upload = `/support/v1/uploads/${UPLOAD}`
const NO_TUS = [400, 'invalid_parameter'] as const satisfies Expected
const BAD = [403, 'forbidden'] as const satisfies Expected
/** A browser's push subscription (a fresh P-256 key and auth secret), and a renewal of one nobody holds. */
const { endpoint, keys } = browserSubscription('https://push.example/matrix')
const pushSubscription = { endpoint, keys }
const renewal = { oldEndpoint: 'https://push.example/gone', auth: keys.auth, subscription: pushSubscription }

function table(): Record<string, Row> {
  const c = `/support/v1/conversations/${aConversation}`
  const me = `/support/v1/me/conversations/${aConversation}`
  const rt = (channel: string) => `/realtime/v1/channels/${encodeURIComponent(channel)}`
  const lisbon = { lat: 38.72, lng: -9.14 }
  return {
    listResources: { method: 'GET', path: '/support/v1/resources', expect: agents(true) },
    createResource: { method: 'POST', path: '/support/v1/resources', body: { name: 'x' }, expect: agents(false, 201) },
    getResource: { method: 'GET', path: '/support/v1/resources/res_sup_3', expect: agents(true) },
    updateResource: {
      method: 'PATCH',
      path: '/support/v1/resources/res_sup_3',
      body: { name: 'y' },
      expect: agents(false),
    },
    deleteResource: { method: 'DELETE', path: '/support/v1/resources/res_sup_4', expect: agents(false, 204) },
    // Nobody here holds `maps`.
    geocode: { method: 'POST', path: '/maps/v1/geocode', body: { query: 'Lisbon' }, expect: nobody },
    computeRoute: {
      method: 'POST',
      path: '/maps/v1/routes:compute',
      body: { origin: lisbon, destination: lisbon },
      expect: nobody,
    },
    searchPlaces: { method: 'GET', path: '/maps/v1/places?query=lis', expect: nobody },
    autocompletePlaces: { method: 'GET', path: '/maps/v1/places:autocomplete?input=lis', expect: nobody },
    validateAddress: {
      method: 'POST',
      path: '/maps/v1/addresses:validate',
      body: { regionCode: 'PT', addressLines: ['Rua Augusta 100'] },
      expect: nobody,
    },
    getMapView: { method: 'GET', path: '/maps/v1/views?center=38.72,-9.14&zoom=6', expect: nobody },
    listMailboxes: { method: 'GET', path: '/support/v1/mailboxes', expect: agents(true) },
    getMailbox: {
      method: 'GET',
      path: '/support/v1/mailboxes/mbx_nope',
      expect: { ...agents(true), readOnly: 404, agent: 404 },
    },
    listAgents: { method: 'GET', path: '/support/v1/agents', expect: agents(true) },
    listConversations: { method: 'GET', path: '/support/v1/conversations', expect: agents(true) },
    createConversation: {
      method: 'POST',
      path: '/support/v1/conversations',
      body: { mailboxId: 'mbx_nope', subject: 's', customer: { email: 'ana@example.com' }, text: 't' },
      expect: { ...agents(false), agent: [422, 'unknown_mailbox'] },
    },
    getConversation: { method: 'GET', path: c, expect: agents(true) },
    updateConversation: { method: 'PATCH', path: c, body: { tags: ['matrix'] }, expect: agents(false) },
    listThreads: { method: 'GET', path: `${c}/threads`, expect: agents(true) },
    replyToConversation: { method: 'POST', path: `${c}/reply`, body: { text: 'Hello' }, expect: agents(false, 201) },
    addNote: { method: 'POST', path: `${c}/notes`, body: { text: 'Psst' }, expect: agents(false, 201) },
    getMe: { method: 'GET', path: '/support/v1/me', expect: mine(200, false) },
    listMyConversations: { method: 'GET', path: '/support/v1/me/conversations', expect: mine(200, false) },
    startConversation: {
      method: 'POST',
      path: '/support/v1/me/conversations',
      body: { text: 'Hello there' },
      expect: mine(201, false),
    },
    getMyConversation: { method: 'GET', path: me, expect: mine(200, true) },
    listMyMessages: { method: 'GET', path: `${me}/messages`, expect: mine(200, true) },
    sendMyMessage: { method: 'POST', path: `${me}/messages`, body: { text: 'Any news?' }, expect: mine(201, true) },
    markMyConversationRead: { method: 'POST', path: `${me}/read`, expect: mine(200, true) },
    setMyTyping: { method: 'POST', path: `${me}/typing`, body: { typing: true }, expect: mine(204, true) },
    // Agents and customers upload (refused next: no Tus-Resumable); a download needs a signature, not a scope.
    createUpload: { method: 'POST', path: '/support/v1/uploads', expect: { ...each(NO_TUS), readOnly: NO } },
    sendUploadBytes: { method: 'PATCH', path: upload, expect: { ...each(NO_TUS), readOnly: NO } },
    deleteUpload: { method: 'DELETE', path: upload, expect: { ...each(NO_TUS), readOnly: NO } },
    downloadFile: { method: 'GET', path: `/support/v1/files/${UPLOAD}?expires=1&signature=x`, expect: each(BAD) },
    listDocCollections: { method: 'GET', path: '/support/v1/docs/collections', expect: everyone },
    listArticles: { method: 'GET', path: '/support/v1/docs/articles', expect: everyone },
    getArticle: { method: 'GET', path: `/support/v1/docs/articles/${article}`, expect: everyone },
    history: {
      method: 'GET',
      path: `${rt(aChannel)}/messages`,
      expect: { A: 200, B: NO, readOnly: 200, agent: 200 },
    },
    // Nobody but the service publishes on a customer channel, not even a `realtime` token.
    publish: {
      method: 'POST',
      path: `${rt(aChannel)}/messages`,
      body: { event: 'message', data: {} },
      expect: { A: [403, 'forbidden'], B: [403, 'forbidden'], readOnly: [403, 'forbidden'], agent: [403, 'forbidden'] },
    },
    presence: { method: 'GET', path: `${rt(aChannel)}/presence`, expect: { A: 200, B: NO, readOnly: 200, agent: 200 } },
    listChannels: { method: 'GET', path: '/realtime/v1/channels', expect: { ...agents(false), agent: 200 } },
    // Web Push: each person (customer or agent, any support reader) registers for themselves;
    // renew is token-free (only the old subscription's secret counts: none matches here).
    getPushKey: { method: 'GET', path: '/realtime/v1/push/key', expect: everyone },
    listPushSubscriptions: { method: 'GET', path: '/realtime/v1/push/subscriptions', expect: everyone },
    registerPushSubscription: { method: 'POST', path: push, body: pushSubscription, expect: each(201) },
    renewPushSubscription: { method: 'POST', path: `${push}/renew`, body: renewal, expect: each(PUSH_404) },
    removePushSubscription: { method: 'DELETE', path: `${push}/psb_nope`, expect: each(PUSH_404) },
  }
}

/** Every operation of the contract, by operationId. */
function operations(): string[] {
  const ids: string[] = []
  for (const item of Object.values(openapi.paths as Record<string, Record<string, { operationId?: string }>>))
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const id = item[method]?.operationId
      if (id) ids.push(id)
    }
  return ids
}

const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
async function connect(who: Who): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(emu(), tokens[who])
  sockets.push(socket)
  return socket
}

beforeAll(async () => {
  const e = emu()
  const agent = await e.mintToken({ subject: 'agt_matrix', scope: ['support', 'realtime'] })
  const seeded = (await (await call(e, '/support/v1/conversations?limit=2', { token: agent })).json()) as {
    data: { id: string; customer: { id: string } }[]
  }
  const [a, b] = seeded.data.map((c) => c.customer.id)
  aConversation = seeded.data[0]!.id
  aChannel = customerChannelName(a!)
  bChannel = customerChannelName(b!)
  const customer = (subject: string) => e.mintToken({ subject, scope: [CUSTOMER_SCOPE], profile: { name: subject } })
  Object.assign(tokens, {
    A: await customer(a!),
    B: await customer(b!),
    agent,
    readOnly: await e.mintToken({ subject: 'agt_reader', scope: ['support:read', 'realtime:subscribe:*'] }),
  })
  const all = (await (await call(e, '/support/v1/docs/articles?limit=100', { token: agent })).json()) as {
    data: { id: string; published: boolean }[]
  }
  article = all.data.find((x) => x.published)!.id
  draft = all.data.find((x) => !x.published)!.id
})

describe('the scope matrix, REST', () => {
  it('has a row for every operation of the contract, and none for an operation it lacks', () => {
    const rows = Object.keys(table())
    const ops = operations()
    expect(
      ops.filter((id) => !rows.includes(id)),
      'operations without a row',
    ).toEqual([])
    expect(
      rows.filter((id) => !ops.includes(id)),
      'rows without an operation',
    ).toEqual([])
  })

  it('answers each principal as its row says', async () => {
    const wrong: string[] = []
    for (const [id, row] of Object.entries(table())) {
      for (const who of WHO) {
        const res = await call(emu(), row.path, {
          method: row.method,
          token: tokens[who],
          ...(row.body !== undefined ? { json: row.body } : {}),
        })
        const text = await res.text()
        const [status, code] = [row.expect[who]].flat() as [number, string | undefined]
        const got = res.status >= 400 ? (JSON.parse(text) as ErrorJson).error.code : undefined
        if (res.status !== status || (code !== undefined && got !== code))
          wrong.push(`${id} as ${who}: ${res.status} ${got ?? ''} (wanted ${status} ${code ?? ''})`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('shows a customer the published docs only; an agent sees the drafts too', async () => {
    const get = (who: Who, path: string) => call(emu(), `/support/v1/docs/${path}`, { token: tokens[who] })
    expect((await get('A', `articles/${draft}`)).status).toBe(404)
    expect((await get('agent', `articles/${draft}`)).status).toBe(200)
    const count = async (who: Who) =>
      ((await (await get(who, 'collections?limit=100')).json()) as { data: { articleCount: number }[] }).data.reduce(
        (n, c) => n + c.articleCount,
        0,
      )
    const listed = async (who: Who) =>
      ((await (await get(who, 'articles?limit=100')).json()) as { data: { published: boolean }[] }).data
    expect(await count('agent')).toBe(60)
    expect(await count('A')).toBe((await listed('agent')).filter((x) => x.published).length)
    expect(await count('A')).toBeLessThan(60)
    expect((await listed('A')).every((x) => x.published)).toBe(true)
  })
})

describe('the scope matrix, channels', () => {
  const subscribe = async (socket: TestSocket, channel: string) =>
    ((await socket.request({ type: 'subscribe', channels: [{ channel }] })).channels[0] as Frame).error?.code ?? 'ok'

  it('lets customer A subscribe to its own channel only', async () => {
    const a = await connect('A')
    expect(await subscribe(a, aChannel)).toBe('ok')
    expect(await subscribe(a, bChannel)).toBe('forbidden')
    expect(await subscribe(a, 'support:conversations')).toBe('forbidden')
    expect(await subscribe(a, resourcePresenceChannel('support/conversations'))).toBe('forbidden')
    expect((await a.request({ type: 'history', channel: aChannel })).type).toBe('history')
    expect((await a.request({ type: 'history', channel: bChannel })).error.code).toBe('forbidden')
    const agent = await connect('agent')
    expect(await subscribe(agent, aChannel)).toBe('ok')
    expect(await subscribe(agent, resourcePresenceChannel('support/conversations'))).toBe('ok')
  })

  it('refuses a publish or a presence on a customer channel to every token, saying why', async () => {
    for (const who of WHO) {
      const socket = await connect(who)
      const publish = await socket.request({
        type: 'publish',
        channel: aChannel,
        event: 'message',
        data: {},
        idempotencyKey: `k-${who}`,
      })
      expect(publish.error.code, who).toBe('forbidden')
      expect(publish.error.message).toMatch(/only the support service/i)
      const enter = await socket.request({ type: 'presence.enter', channel: aChannel, data: {} })
      expect(enter.error.code, who).toBe('forbidden')
    }
  })

  it('never carries an internal note to the customer: the reply after it arrives, the note never', async () => {
    const a = await connect('A')
    expect(await subscribe(a, aChannel)).toBe('ok')
    const post = (kind: string, text: string) =>
      call(emu(), `/support/v1/conversations/${aConversation}/${kind}`, {
        method: 'POST',
        token: tokens.agent,
        json: { text },
      })
    expect((await post('notes', 'Internal: customer is on the legacy plan')).status).toBe(201)
    expect((await post('reply', 'We are on it.')).status).toBe(201)
    const reply = await a.take((f) => f.type === 'message' && f.event === 'message')
    expect((reply.data as { text: string }).text).toBe('We are on it.')
    const said = [reply, ...a.drain('message')].map((f) => JSON.stringify(f.data))
    expect(said.join('\n')).not.toContain('legacy plan')
  })
})
