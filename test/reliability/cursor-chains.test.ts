// Issue 43, row 11: a support service whose lists never end (every page a new `nextCursor`) or
// come back to a cursor. A chain the SDK follows by itself (a messenger thread, the customer's
// conversation list) stops at its page cap with `too_many_pages`, or at the repeated cursor with
// `bad_response`, each carrying the last answer's request id, and shows what did load beside the
// error; a list the app iterates goes on as long as the app does, but a repeated cursor is the
// typed error there too. Public API only, against a hostile HTTP server on 127.0.0.1.
import type { IncomingMessage } from 'node:http'
import { DEFAULTS } from '@tandem/core'
import { createBaseClient } from '@tandem/core/client'
import { messenger, type Messenger } from '@tandem/core/messenger'
import { afterEach, describe, expect, it } from 'vitest'
import { serve } from '../utils/http-server.js'
import { during, slack, waitUntil } from '../utils/wait.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const AT = '2024-07-05T10:00:00.000Z'
const conversation = (id: string) => ({
  id,
  subject: 'Export is empty',
  status: 'active',
  preview: 'Hello',
  messageCount: 1,
  unreadCount: 0,
  createdAt: AT,
  modifiedAt: AT,
  closedAt: null,
})
const message = (n: number) => ({
  id: `thr_${n}`,
  conversationId: 'cnv_1',
  author: { type: 'agent', name: 'Ada' },
  text: `message ${n}`,
  attachments: [],
  createdAt: new Date(Date.parse(AT) + n * 1_000).toISOString(),
})

/** How the hostile lists go on: a new cursor on every page, or the same one again from the second page. */
type Chain = 'endless' | 'repeating'

interface Hostile {
  url: string
  /** Page requests per list path. */
  pages: (path: string) => number
}

async function hostileSupport(chain: Chain): Promise<Hostile> {
  const pages = new Map<string, number>()
  let requests = 0
  let pageId: string | undefined
  const page = (req: IncomingMessage, item: (n: number) => unknown) => {
    const path = new URL(req.url!, 'http://x').pathname
    const n = (pages.get(path) ?? 0) + 1
    pages.set(path, n)
    const nextCursor = chain === 'endless' ? `c${n}` : 'again'
    pageId = `page_${n}` // a page's request id says which page it was
    return { data: [item(n)], nextCursor }
  }
  const { url, close } = await serve((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname
    pageId = undefined
    const body =
      path === '/support/v1/me'
        ? { id: 'cus_1', name: null, email: null, unreadCount: 0 }
        : path === '/support/v1/me/conversations/cnv_1'
          ? conversation('cnv_1')
          : path === '/support/v1/me/conversations/cnv_1/messages'
            ? page(req, message)
            : path === '/support/v1/me/conversations'
              ? page(req, (n) => conversation(`cnv_${n}`))
              : undefined
    const headers = { 'content-type': 'application/json', 'x-request-id': pageId ?? `req_${++requests}` }
    if (body) res.writeHead(200, headers).end(JSON.stringify(body))
    else res.writeHead(404, headers).end('{"error":{"code":"not_found","message":"no","status":404}}')
  })
  cleanups.push(close)
  return { url, pages: (p) => pages.get(p) ?? 0 }
}

function desk(url: string, maxPages?: number): Messenger {
  const client = createBaseClient({
    baseUrl: url,
    auth: { fetchToken: async () => ({ token: 't', expiresIn: 3_600 }) },
  })
  const d = messenger(client, maxPages === undefined ? {} : { maxPages })
  cleanups.push(() => d.shutdown())
  return d
}

const MESSAGES = '/support/v1/me/conversations/cnv_1/messages'
const LIST = '/support/v1/me/conversations'

describe('cursor chains the SDK follows by itself', () => {
  it(`a thread whose pages never end: ${DEFAULTS.maxPages} pages, then too_many_pages beside the messages that loaded`, async () => {
    const service = await hostileSupport('endless')
    const thread = desk(service.url).thread('cnv_1')
    cleanups.push(thread.subscribe(() => {}))
    await waitUntil(() => thread.getSnapshot().status === 'error', {
      on: thread.subscribe,
      what: 'the thread in error',
      timeoutMs: slack(10_000),
    })
    const { messages, error, conversation: c } = thread.getSnapshot()
    expect(error).toMatchObject({ name: 'ApiError', code: 'too_many_pages', requestId: `page_${DEFAULTS.maxPages}` })
    expect(messages, 'every message of the pages read, not 0').toHaveLength(DEFAULTS.maxPages)
    expect(c?.id, 'the conversation too').toBe('cnv_1')
    await during(slack(300))
    expect(service.pages(MESSAGES), 'page requests').toBe(DEFAULTS.maxPages)
  })

  it('a thread whose next cursor comes back: bad_response with that answer’s request id, the first page shown', async () => {
    const service = await hostileSupport('repeating')
    const thread = desk(service.url).thread('cnv_1')
    cleanups.push(thread.subscribe(() => {}))
    await waitUntil(() => thread.getSnapshot().status === 'error', {
      on: thread.subscribe,
      what: 'the thread in error',
      timeoutMs: slack(10_000),
    })
    const { messages, error } = thread.getSnapshot()
    expect(error).toMatchObject({ name: 'ApiError', code: 'bad_response', status: 200, requestId: 'page_2' })
    expect(error?.message).toContain('$.nextCursor')
    expect(messages.map((m) => m.id)).toEqual(['thr_1'])
    await during(slack(300))
    expect(service.pages(MESSAGES), 'the first page and the one that repeated its cursor').toBe(2)
  })

  it('the cap is the messenger’s maxPages; the conversation list is capped too', async () => {
    const service = await hostileSupport('endless')
    const d = desk(service.url, 3)
    const list = d.conversationList()
    cleanups.push(list.subscribe(() => {}))
    await waitUntil(() => list.getSnapshot().status === 'error', {
      on: list.subscribe,
      what: 'the list in error',
      timeoutMs: slack(10_000),
    })
    expect(list.getSnapshot().error).toMatchObject({
      code: 'too_many_pages',
      requestId: 'page_3',
      details: { maxPages: 3 },
    })
    expect(list.getSnapshot().conversations).toHaveLength(3)
    await during(slack(300))
    expect(service.pages(LIST)).toBe(3)
  })
})

describe('cursor chains the app iterates', () => {
  it('for await goes on past the cap as long as the app iterates', async () => {
    const service = await hostileSupport('endless')
    const d = desk(service.url)
    let n = 0
    for await (const m of d.conversations.messages('cnv_1')) {
      expect(m.id).toBe(`thr_${++n}`)
      if (n === DEFAULTS.maxPages + 20) break
    }
    expect(service.pages(MESSAGES)).toBe(DEFAULTS.maxPages + 20)
  })

  it('a repeated cursor is the typed error there too, after the pages before it', async () => {
    const service = await hostileSupport('repeating')
    const seen: string[] = []
    const error = await (async () => {
      for await (const m of desk(service.url).conversations.messages('cnv_1')) seen.push(m.id)
    })().catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ApiError', code: 'bad_response', status: 200, requestId: 'page_2' })
    expect(seen).toEqual(['thr_1'])
    expect(service.pages(MESSAGES)).toBe(2)
  })
})
