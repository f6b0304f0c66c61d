// What the tabs of one app say to each other on their BroadcastChannel (docs/realtime.md, "One
// connection for all tabs"). A `socket` is a tab socket's id (`<tab>:<n>`), a `leader` the leading
// tab's id. The frames a tab's client sends and receives travel as the same JSON text the service
// speaks (`data`). Each message is checked by `parseTabMessage` before anything reads it.
import { byType, fitsType } from './fits.js'

export type TabMessage =
  /** I lead now: on election, and in answer to `who`. */
  | { type: 'leader'; leader: string }
  /** A new tab asks who leads. */
  | { type: 'who' }
  /** The leader is going (its page is hidden or stopped). */
  | { type: 'bye'; leader: string }
  /** A follower's socket asks to open; `entered`: the channels its tab is present on (the leader counts them). */
  | { type: 'open'; socket: string; tab: string; entered: string[] }
  | { type: 'opened'; socket: string; leader: string }
  /** A frame from a tab socket to the leader. */
  | { type: 'up'; socket: string; data: string }
  /** A frame from the service to these sockets: posted once, whatever the number of tabs. */
  | { type: 'down'; to: string[]; data: string }
  /** The leader closed these sockets (the service's close, or a handover). */
  | { type: 'shut'; to: string[]; code: number; reason: string }
  /** A follower closed its socket. */
  | { type: 'close'; socket: string; reason: string }
  /** The service's connection id, for the next leader's resume. */
  | { type: 'conn'; connectionId: string }
  /** The channels a tab is present on (posted when they change, and in answer to `who`). */
  | { type: 'present'; tab: string; entered: string[] }
  /** A follower asks the leader's token provider; `stale`: a token it must not be given again. */
  | { type: 'token'; ask: string; stale?: string | undefined }
  /** The leader's answer: the token, or the `error` code and `message` its provider failed with. */
  | {
      type: 'tokened'
      ask: string
      token?: string | undefined
      error?: string | undefined
      message?: string | undefined
    }

export type TabMessageOf<T extends TabMessage['type']> = Extract<TabMessage, { type: T }>

/** Each message's fields as lines of the contract's shape check (`hasFields`); here, as no frame of the contract. */
const LINES = byType<TabMessage['type']>({
  leader: 'leader:string',
  who: '',
  bye: 'leader:string',
  open: 'socket:string tab:string entered:array entered[]:string',
  opened: 'socket:string leader:string',
  up: 'socket:string data:string',
  down: 'to:array to[]:string data:string',
  shut: 'to:array to[]:string code:int reason:string',
  close: 'socket:string reason:string',
  conn: 'connectionId:string',
  present: 'tab:string entered:array entered[]:string',
  token: 'ask:string stale?:string',
  tokened: 'ask:string token?:string error?:string message?:string',
})

const isTabMessage = (data: unknown): data is TabMessage => fitsType(data, LINES)

/** Another tab's message, checked; `undefined` for anything else (another version's, a stranger's). */
export const parseTabMessage = (data: unknown): TabMessage | undefined => (isTabMessage(data) ? data : undefined)

/** A close the service never sends: the tabs' own (closeAction reads `code` from the JSON reason). */
export const HANDOVER_CLOSE = 1012
export const closeReason = (code: string): string => JSON.stringify({ code })
