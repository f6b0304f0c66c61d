// Every word the devtools show or announce, in English. `el.strings = { … }` (or the `strings`
// option) merges a partial set over these; sentences that hold a value are functions.

export interface DevtoolsStrings {
  /** The launcher button's name. */
  launcherLabel: string
  /** The dialog's name and heading. */
  title: string
  close: string
  /** The tab list's name. */
  sections: string
  requestsTab: string
  cacheTab: string
  connectionTab: string
  channelsTab: string
  rateLimitsTab: string
  outboxTab: string
  savedCacheTab: string
  /** The toolbar's name. */
  actions: string
  dropConnection: string
  expireToken: string
  goOffline: string
  backOnline: string
  /** Forget what was recorded. */
  clear: string
  /** The status line while an action runs, after it, and when it failed. */
  working: (action: string) => string
  done: (action: string) => string
  failed: (action: string, message: string) => string
  wentOffline: string
  cameOnline: string
  /** A tab whose source was not given (`client`, `realtime`). */
  missing: (property: string) => string
  /** How many rows are shown of how many were seen. */
  kept: (shown: number, total: number) => string
  /** A duration and a time of day (ms since epoch). */
  duration: (ms: number) => string
  time: (at: number) => string

  noRequests: string
  requestId: string
  retrying: string
  attempts: (count: number) => string
  /** An attempt's outcome: its status, or its error code. */
  attempt: (n: number, outcome: string, ms: string) => string
  retried: (reason: string, delay: string) => string
  rateLimitWait: (wait: string, reason: string) => string

  noEntries: string
  fresh: string
  stale: string
  fetching: string
  observers: (count: number) => string
  live: string
  notLive: (message: string) => string
  entryError: (message: string) => string
  refetch: string
  invalidate: string
  remove: string
  /** A cache button's accessible name: the action and the entry's key. */
  entryAction: (action: string, key: string) => string

  state: string
  connectionId: string
  lastError: string
  timeline: string
  noTimeline: string
  /** The timeline's first row: the state (and connection id) when the recorder started. */
  recordingStarted: (state: string, connectionId: string | undefined) => string
  retryIn: (delay: string) => string
  role: (role: string, leader: string | undefined) => string
  frames: string
  noFrames: string
  frameIn: string
  frameOut: string
  chars: (count: number) => string
  truncated: (max: number) => string
  token: string
  noTokens: string
  tokenArrived: (expiresIn: string) => string
  tokenFailed: (message: string) => string

  noChannels: string
  position: (offset: number, epoch: string) => string
  noPosition: string
  subscribers: (count: number) => string
  presence: (clientIds: string) => string
  noPresence: string
  thisTab: string
  notShared: string
  tabRole: (role: string, tabId: string, leader: string | undefined, key: string) => string

  noQueue: string
  /** After the service's name when its bucket is a customer's own quota, not the app's plan. */
  customerBucket: string
  queue: (queued: number, wait: string) => string
  lastWaits: string
  noWaits: string
  waited: (service: string, wait: string, reason: string) => string

  outboxStatus: (status: string, mode: string) => string
  nothingHeld: string
  lane: string
  lastFailure: (message: string) => string
  persisterStatus: (status: string, mode: string) => string
  restored: (reason: string, entries: number) => string
}

/** `n` and the word, `many` for any number but 1 (by default the word with an s). */
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export const DEFAULT_STRINGS: Readonly<DevtoolsStrings> = Object.freeze({
  launcherLabel: 'Open Tandem devtools',
  title: 'Tandem devtools',
  close: 'Close devtools',
  sections: 'Sections',
  requestsTab: 'Requests',
  cacheTab: 'Cache',
  connectionTab: 'Connection',
  channelsTab: 'Channels',
  rateLimitsTab: 'Rate limits',
  outboxTab: 'Outbox',
  savedCacheTab: 'Saved cache',
  actions: 'Actions',
  dropConnection: 'Drop connection',
  expireToken: 'Expire token',
  goOffline: 'Go offline',
  backOnline: 'Back online',
  clear: 'Clear',
  working: (action: string) => `${action}…`,
  done: (action: string) => `${action}: done`,
  failed: (action: string, message: string) => `${action} failed: ${message}`,
  wentOffline: 'The page looks offline to Tandem now (a request made anyway still reaches the network).',
  cameOnline: 'The page looks online to Tandem again.',
  missing: (property: string) => `Set the devtools' ${property} property to see this.`,
  kept: (shown: number, total: number) => `The last ${shown} of ${total}.`,
  duration: (ms: number) => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`),
  time: (at: number) => new Date(at).toLocaleTimeString(),

  noRequests: 'No requests yet.',
  requestId: 'request id',
  retrying: 'retrying',
  attempts: (count: number) => plural(count, 'attempt'),
  attempt: (n: number, outcome: string, ms: string) => `attempt ${n}: ${outcome} in ${ms}`,
  retried: (reason: string, delay: string) => `retried (${reason}) after ${delay}`,
  rateLimitWait: (wait: string, reason: string) => `waited ${wait} for the rate limit (${reason})`,

  noEntries: 'The cache is empty.',
  fresh: 'fresh',
  stale: 'stale',
  fetching: 'fetching',
  observers: (count: number) => plural(count, 'observer'),
  live: 'live',
  notLive: (message: string) => `not live: ${message}`,
  entryError: (message: string) => `error: ${message}`,
  refetch: 'Refetch',
  invalidate: 'Invalidate',
  remove: 'Remove',
  entryAction: (action: string, key: string) => `${action} ${key}`,

  state: 'State',
  connectionId: 'Connection id',
  lastError: 'Last error',
  timeline: 'Timeline',
  noTimeline: 'No changes yet.',
  recordingStarted: (state: string, connectionId: string | undefined) =>
    `recording started: ${state}${connectionId ? ` as ${connectionId}` : ''}`,
  retryIn: (delay: string) => `retry in ${delay}`,
  role: (role: string, leader: string | undefined) => `this tab: ${role}${leader ? ` (leader ${leader})` : ''}`,
  frames: 'Frames',
  noFrames: 'No frames yet.',
  frameIn: 'in',
  frameOut: 'out',
  chars: (count: number) => plural(count, 'char'),
  truncated: (max: number) => `(cut at ${max} characters)`,
  token: 'Token',
  noTokens: 'No token yet.',
  tokenArrived: (expiresIn: string) => `new token, expires in ${expiresIn}`,
  tokenFailed: (message: string) => `token failed: ${message}`,

  noChannels: 'No channels.',
  position: (offset: number, epoch: string) => `offset ${offset}, epoch ${epoch}`,
  noPosition: 'no position yet',
  subscribers: (count: number) => plural(count, 'subscriber'),
  presence: (clientIds: string) => `present: ${clientIds}`,
  noPresence: 'presence not tracked',
  thisTab: 'This tab',
  notShared: 'Not shared across tabs: this tab has a connection of its own.',
  tabRole: (role: string, tabId: string, leader: string | undefined, key: string) =>
    `${role} (tab ${tabId}${leader && leader !== tabId ? `, leader ${leader}` : ''}), key ${key}`,

  noQueue: 'nothing waits',
  customerBucket: ' (customer quota)',
  queue: (queued: number, wait: string) => `${queued} queued, the last waits ${wait}`,
  lastWaits: 'Last waits',
  noWaits: 'No waits yet.',
  waited: (service: string, wait: string, reason: string) => `${service} waited ${wait} (${reason})`,

  outboxStatus: (status: string, mode: string) => `${status} (${mode})`,
  nothingHeld: 'Nothing is waiting.',
  lane: 'lane',
  lastFailure: (message: string) => `last failure: ${message}`,
  persisterStatus: (status: string, mode: string) => `${status} (${mode})`,
  restored: (reason: string, entries: number) => `restore: ${reason}, ${plural(entries, 'entry', 'entries')}`,
})
