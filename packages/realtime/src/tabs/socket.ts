// A WebSocket as partysocket sees it, whose other end is the leading tab's hub (on a
// BroadcastChannel, or in the same tab): the client above it runs unchanged (its state machine,
// resume by offset, publish retries with their idempotency keys).

/** What a tab socket needs from its tab. */
export interface SocketLink {
  /** A new socket: open it on the leading tab (now, or once one leads). */
  attach(socket: TabSocket): void
  up(socket: TabSocket, text: string): void
  /** The client closed it (partysocket reports that close itself). */
  closed(socket: TabSocket, reason: string): void
  /** The hub closed it: forget it. */
  forget(socket: TabSocket): void
}

/**
 * A `message` or `close` event as the platform makes them: partysocket re-dispatches a copy made
 * with the event's own constructor in a browser (a plain Event would lose `data` and `code`), and
 * reads the fields in Node, which has no CloseEvent before 23.
 */
function event(type: 'message' | 'close', init: object): Event {
  const g = globalThis as { MessageEvent?: typeof MessageEvent; CloseEvent?: typeof CloseEvent }
  const Made = type === 'message' ? g.MessageEvent : g.CloseEvent
  return Made ? new Made(type, init) : Object.assign(new Event(type), init)
}

export class TabSocket extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSING = 2
  static readonly CLOSED = 3
  readyState = 0
  binaryType = 'blob'
  readonly bufferedAmount = 0
  readonly extensions = ''
  readonly protocol = ''
  /** The tab whose hub serves it, once open. */
  leader: string | undefined
  /** The wait for a leader to answer its open. */
  timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    readonly url: string,
    readonly id: string,
    private readonly link: SocketLink,
  ) {
    super()
    link.attach(this)
  }

  send(text: string): void {
    if (this.readyState === 1) this.link.up(this, text)
  }

  close(_code?: number, reason = ''): void {
    if (this.readyState === 3) return
    this.readyState = 3
    clearTimeout(this.timer)
    this.link.closed(this, reason)
  }

  // Events go out in a microtask, in order: never inside the caller's own send or close.
  private dispatch(e: Event, open = true) {
    queueMicrotask(() => (!open || this.readyState === 1) && this.dispatchEvent(e))
  }

  opened(leader: string): void {
    if (this.readyState !== 0) return
    clearTimeout(this.timer)
    this.leader = leader
    this.readyState = 1
    this.dispatch(new Event('open'))
  }

  receive(data: string): void {
    this.dispatch(event('message', { data }))
  }

  shut(code: number, reason: string): void {
    if (this.readyState === 3) return
    this.readyState = 3
    clearTimeout(this.timer)
    this.link.forget(this)
    this.dispatch(event('close', { code, reason, wasClean: true }), false)
  }
}

/** The constructor partysocket calls (`new WebSocket(url)`), bound to one tab. */
export function tabSocketClass(link: SocketLink, tab: string): new (url: string) => TabSocket {
  let n = 0
  return class extends TabSocket {
    constructor(url: string) {
      super(url, `${tab}:${++n}`, link)
    }
  }
}
