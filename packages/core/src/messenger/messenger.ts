import {
  CUSTOMER_EVENT_FIELDS,
  CUSTOMER_EVENTS,
  wrongField,
  type CustomerConversation,
  type CustomerMessage,
  type CustomerTyping,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { LiveMessage } from '../cache/live.js'
import { httpOf, type RequestClient } from '../client-request.js'
import { validateId } from '../collection.js'
import { MAX_PAGES, TYPING_TIMEOUT_MS } from '../defaults.js'
import { RealtimeError, TandemError, ValidationError } from '../errors.js'
import { createEmitter } from '../events.js'
import { createCustomerChannel, customerIdOf } from './channel.js'
import { createConversationTable } from './conversation-table.js'
import type { StoreDeps } from './live-runner.js'
import { createHelpSearch } from './help-search.js'
import { createMessengerRest } from './rest.js'
import { createThreadStore, type ThreadStore } from './thread-store.js'
import { createTypingSender } from './typing.js'
import type { Messenger, MessengerOptions } from './types.js'
import { optional, requireNumber } from '../validate.js'

interface MessengerEvents {
  message: (message: CustomerMessage) => void
  conversation: (conversation: CustomerConversation) => void
  typing: (typing: CustomerTyping) => void
  error: (error: TandemError) => void
}

const shutDownError = () =>
  new TandemError(
    DEV && process.env.NODE_ENV !== 'production'
      ? 'This messenger was shut down: create another'
      : 'messenger: shut_down',
    { code: 'shut_down' },
  )

/** What makes a store fetch again what it shows, when it runs. */
const RESYNC = { type: 'resync' } as const

/**
 * The customer side of support for a client whose token has the `support:customer` scope
 * (`@tandem/core/messenger`): the customer's conversations, replies, read marks and the published
 * docs, and, with a realtime connection, live stores fed by the customer's own channel.
 *
 * @example
 * ```ts
 * const desk = messenger(client, { realtime: createRealtime({ client }) })
 * const off = desk.unread.subscribe(() => console.log(desk.unread.getSnapshot().total))
 * await desk.conversations.start({ text: 'My export is empty' })
 * ```
 */
export function messenger(client: RequestClient, options: MessengerOptions = {}): Messenger {
  const http = httpOf(client)
  if (typeof options !== 'object' || options === null)
    throw new ValidationError('options', DEV && process.env.NODE_ENV !== 'production' && 'must be an object')
  const { realtime } = options
  const maxPages = optional(options.maxPages, (v) => requireNumber(v, 'maxPages', 1, 10_000, true)) ?? MAX_PAGES
  if (realtime !== undefined && typeof (realtime as { channel?: unknown } | null)?.channel !== 'function')
    throw new ValidationError(
      'realtime',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a createRealtime(…) connection',
    )

  let shutDown = false
  const alive = () => {
    if (shutDown) throw shutDownError()
  }
  const controller = new AbortController()
  const emitter = createEmitter<MessengerEvents>()
  const rest = createMessengerRest(http, alive)

  const report = (error: TandemError) => {
    if (shutDown) return
    if (emitter.has('error')) emitter.emit('error', error)
    else globalThis.console?.warn(`[tandem] messenger: ${error.message}`)
  }

  let customerId: Promise<string> | undefined
  const channel = createCustomerChannel(realtime, {
    customerId() {
      customerId ??= rest.me({ signal: controller.signal }).then(customerIdOf)
      customerId.catch(() => (customerId = undefined)) // the next hold asks again
      return customerId
    },
    onMessage,
    onResync() {
      table.dispatch(RESYNC)
      threads.forEach((t) => t.dispatch(RESYNC))
    },
    onError: report,
  })

  const deps: StoreDeps = { rest, hold: channel.hold, signal: controller.signal, report, alive, maxPages }
  const table = createConversationTable(deps)
  /** The thread stores made and not stopped since: the ones pushes reach. */
  const threads = new Map<string, ThreadStore>()

  function onMessage({ event, data }: LiveMessage) {
    // Events of a later version are not ours to read; each of ours is checked against its contract line.
    if (shutDown || !Object.hasOwn(CUSTOMER_EVENT_FIELDS, event)) return
    const field = wrongField(data, CUSTOMER_EVENT_FIELDS[event as keyof typeof CUSTOMER_EVENT_FIELDS])
    if (field !== undefined)
      return report(
        new RealtimeError(
          DEV && process.env.NODE_ENV !== 'production'
            ? `A malformed "${event}" push was dropped (${field})`
            : `bad_push ${event}`,
          {
            code: 'bad_push',
            details: [{ event, field }],
          },
        ),
      )
    if (event === CUSTOMER_EVENTS.message) {
      const m = data as CustomerMessage
      threads.get(m.conversationId)?.dispatch({ type: 'message', message: m })
      emitter.emit('message', m)
    } else if (event === CUSTOMER_EVENTS.conversation) {
      const c = data as CustomerConversation
      table.dispatch({ type: 'conversation', conversation: c, pushed: true })
      threads.get(c.id)?.dispatch({ type: 'conversation', conversation: c })
      emitter.emit('conversation', c)
    } else {
      const t = data as CustomerTyping
      threads.get(t.conversationId)?.dispatch({ type: 'typing', typing: t })
      emitter.emit('typing', t)
    }
  }

  /** The answer of the customer's own write, shown at once (the push that follows changes nothing). */
  const shown = (c: CustomerConversation) => {
    table.dispatch({ type: 'conversation', conversation: c, pushed: false })
    threads.get(c.id)?.dispatch({ type: 'conversation', conversation: c })
    return c
  }

  const typing = createTypingSender(http, { report, alive })
  const conversations: Messenger['conversations'] = {
    ...rest.conversations,
    typing: typing.typing,
    start: async (input, o) => shown(await rest.conversations.start(input, o)),
    markRead: async (id, o) => shown(await rest.conversations.markRead(id, o)),
    async reply(id, input, o) {
      const m = await rest.conversations.reply(id, input, o)
      threads.get(m.conversationId)?.dispatch({ type: 'message', message: m })
      return m
    },
  }

  return {
    client,
    me: rest.me,
    conversations,
    docs: rest.docs,
    on(event: keyof MessengerEvents, listener: MessengerEvents[keyof MessengerEvents]) {
      alive()
      if (event !== 'error' && !Object.hasOwn(CUSTOMER_EVENT_FIELDS, event))
        throw new ValidationError(
          'event',
          DEV && process.env.NODE_ENV !== 'production' && 'must be message, conversation, typing or error',
          String(event),
        )
      if (typeof listener !== 'function')
        throw new ValidationError('listener', DEV && process.env.NODE_ENV !== 'production' && 'must be a function')
      const off = emitter.on(event, listener)
      const release = event === 'error' ? () => {} : channel.hold()
      return () => {
        off()
        release()
      }
    },
    unread: table.unread,
    conversationList: () => (alive(), table.list),
    thread(id) {
      alive()
      validateId(id)
      let thread = threads.get(id)
      if (!thread) {
        const made: ThreadStore = createThreadStore(id, {
          ...deps,
          typingTimeoutMs: TYPING_TIMEOUT_MS,
          // A store held after it stopped (and subscribed again) is the one pushes reach again.
          onRunning: (running) => (running ? threads.set(id, made) : threads.get(id) === made && threads.delete(id)),
        })
        threads.set(id, (thread = made))
      }
      return thread.store
    },
    helpSearch(o) {
      alive()
      return createHelpSearch(rest.docs, o) // after shutdown its searches fail with shut_down, in its snapshot
    },
    shutdown() {
      if (shutDown) return
      shutDown = true
      controller.abort()
      channel.close()
      const close = { type: 'close', error: shutDownError() } as const
      table.dispatch(close)
      threads.forEach((t) => t.dispatch(close))
      threads.clear()
      typing.clear()
      customerId = undefined
    },
  }
}
