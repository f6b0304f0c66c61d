// Bundle size: esbuild, minified, browser, ESM; gzip -9 and brotli 11. One row per use case (beside
// the peers a user would pick instead, built the same way in the same run) and one per public entry
// point. `npm test` enforces every budget here (src/__tests__/budgets.test.ts) and checks that every
// entry point has a row and that an app pays nothing for an entry it does not import
// (src/__tests__/entries.test.ts). `npm run bench -- bundle` writes results/bundle.json and
// regenerates the marked figures in the docs from it (bundle-figures.mjs). Each budget's history:
// bench/HISTORY.md and git log.
import { build } from 'esbuild'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const REACT = ['react', 'react-dom', 'react/jsx-runtime']

/** The messenger's peers, which the page already loads (core, and realtime for live updates). */
const PEERS_OF_MESSENGER = ['@tandem/core', '@tandem/core/*', '@tandem/realtime', '@tandem/realtime/*']
/** The messenger's panel: a dynamic import() of its own, left out of what the closed messenger loads. */
const MESSENGER_PANEL = '*/panel/index.js'
const MESSENGER_MARKDOWN = '*/markdown/index.js'
/**
 * The uploader: the client's import() on its first write with files (tus-js-client), and what a
 * durable outbox loads to delete the uploads of a held write the app removed. Out of every row, as
 * code splitting leaves them out of what an app loads; the uploader's own row is `uploader` below.
 */
const UPLOADER = ['*/uploads/send-files.js', '*/uploads/discard.js']

/** What a React app imports for REST lists, a mutation and a chat with presence. */
const HOOKS = 'TandemProvider, useResources, useResource, useMutation'
const RT_HOOKS = 'useChannel, usePresence, useConnectionState'

/**
 * What an app ships, per use case: issue 28's goal (`target`; `undefined` where the issue sets none)
 * and a budget that `npm test` enforces: the goal where we meet it, else a ratchet at today's size
 * (docs/architecture.md, "Entry points and bundle budgets"). `id` names the row in
 * results/bundle.json and in `absentFrom` below.
 */
export const USE_CASES = [
  {
    id: 'maps-only',
    name: 'maps-only REST app: createClient + geocode (ofetch included)',
    label: 'maps-only REST app',
    imports: '`@tandem/core/client`, `@tandem/core/maps` (`geocode`)',
    source: `import { createClient } from '@tandem/core/client'; import { geocode } from '@tandem/core/maps'; export const g = (o, q) => geocode(createClient(o), q)`,
    budget: 13446, // a ratchet at today's size: the goal is missed (ofetch with ufo and destr, errors that say where); 12.43 kB with each maps call a function, the collection a function, the cache defaults with the cache (issue 28); -481 bytes (issue 28): development-only error sentences; +69 bytes over the last budget (issue 28 review: production messages keep their evidence); -119 bytes (issue 28): the logger only for a client given one; +23 bytes (issue 30): createClient's `outbox` option and OutboxFullError among the error guards' names (26 and 18 bytes minified); +37 bytes (issue 31): callId on the client's events; +40 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them); +1033 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line) and the geocode answer's line: every answer checked before it is kept (bad_response with the request id); the rate limit's bucket read; credentials and empty values refused in a query; +16 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); -27 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -1 bytes (issue 47): module order, the same code; +133 bytes (issue 48): the files seam (a write with files loads the uploader by import(), so the tus bytes are not here) and FileError among the error guards; the contract's new answer lines (Attachment on messages, customerRead); +267 bytes (issue 48 review): the seam a durable outbox deletes a removed write's uploads through (loaded by import()), the upload name rule's sentence
    target: 10_000,
    peers: ['ofetch', 'ky'],
  },
  {
    id: 'autocomplete',
    name: 'address autocomplete: createClient + createAutocomplete (ofetch included)',
    label: 'address autocomplete',
    imports: '`@tandem/core/client`, `@tandem/core/maps` (`createAutocomplete`)',
    source: `import { createClient } from '@tandem/core/client'; import { createAutocomplete } from '@tandem/core/maps'; export const start = (o) => createAutocomplete(createClient(o))`,
    budget: 17230, // today's size (issue 32): the maps-only app's client with createAutocomplete in place of geocode, +2,267 bytes over it: the store (debounce, answers kept by input, prefix refinement, the quota policy), the contract's match rule, autocompletePlaces, and select's geocode and validateAddress; +42 bytes (issue 32 review): select finds the chosen place by its id (a city by reverse geocoding its point) or else the result nearest it, not the first of a shared name; +1598 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line) and the answer lines select reads; failures kept per input with a backoff; the bucket; credentials and empty values refused in a query; +322 bytes (issue 44): number-after-street addresses (parseAutocompleteInput's words and readings, refineSuggestions); +9 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +31 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +615 bytes (issue 46): maps autocomplete as a pure machine (TABLE, effects as data) with one writer; -56 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -4 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -5 bytes (issue 47): module order, the same code; +118 bytes (issue 48): the same client growth as maps-only (files seam, FileError, contract lines); +268 bytes (issue 48 review): the same client growth as maps-only
    target: undefined, // issue 32 sets none for the size (its goals are requests, 429s and latency: npm run bench -- autocomplete)
    peers: [],
  },
  {
    id: 'realtime-only',
    name: 'realtime-only app: token provider + createRealtime (partysocket included)',
    label: 'realtime-only app',
    imports: '`@tandem/realtime` with `{ auth, url }`',
    source: `export { createRealtime } from '@tandem/realtime'`,
    budget: 14699, // a ratchet at today's size: the goal is missed (partysocket, presence and history in the channel); +2 bytes (issue 28): module order only, the same minified size; 14.50 kB (issue 28): presence and history entries of their own, one bounded reader for the token answer (-556 bytes); -361 bytes (issue 28): development-only error sentences; 14.11 kB (issue 28): the debug log only with debugLog() (-131 bytes); of partysocket's 8.4 kB, its own warning texts are 978 bytes (489 gzip), left as they are (not patched); +45 bytes over the last budget (issue 28 review: production messages keep their evidence); +83 bytes (issue 30): createRealtime's `outbox` option (publishes through the durable outbox) and publish's `idempotencyKey` option, checked with the contract's rule; +2 bytes (issue 30 review): module order, the same code; +141 bytes (issue 31): rt.channels() and the frame tap watchFrames reads (48 bytes); the frames' parsing and redaction are in @tandem/realtime/debug, so core's redact is not in this app; +1 byte (issue 32 review): module order once core's internal entry also holds the custom elements' DOM helpers, the same code; +3 bytes (issue 33): channel(name, since), a channel resumed from a given position; +501 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line): the frame lines run through it (faster per frame than before); +19 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +114 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -13 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -200 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +1 bytes (issue 47): module order, the same code
    target: 12_000,
    peers: [
      'pusher-js',
      'centrifuge',
      'ably/modular (BaseRealtime + WebSocketTransport + FetchRequest + RealtimePresence)',
      'socket.io-client',
      '@supabase/realtime-js',
    ],
  },
  {
    id: 'tabs',
    name: 'realtime app sharing one connection across tabs: createRealtime + shareAcrossTabs',
    label: 'realtime app sharing one connection across tabs',
    imports: '`@tandem/realtime`, `@tandem/realtime/tabs`',
    source: `export { createRealtime } from '@tandem/realtime'; export { shareAcrossTabs } from '@tandem/realtime/tabs'`,
    budget: 19969, // a ratchet at today's size: the realtime-only app plus the leader's hub, tab sockets, election and relay; +2 bytes (issue 28): module order only, the same minified size; 19.91 kB (issue 28): presence and history out of the channel (-568 bytes); -419 bytes (issue 28): development-only error sentences; 19.49 kB (issue 28): the debug log only when asked for (-117 bytes); +51 bytes over the last budget (issue 28 review: production messages keep their evidence); +86 bytes (issue 30): createRealtime's `outbox` option and publish's `idempotencyKey` option; +1 byte (issue 30 review): module order, the same code; +132 bytes (issue 31): rt.channels(), the frame tap watchFrames reads (36 bytes) and TabShare.key; +10 bytes (issue 33): channel(name, since), a channel resumed from a given position; +507 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); -10 bytes (issue 45): module order, the same code; +41 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -8 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -195 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -2 bytes (issue 48): module order, no code of its own changed
    target: undefined, // issue 28 sets no goal for it (issue 20's 14 kB predates the hub's typed modules)
    peers: [],
  },
  {
    id: 'react-app',
    name: 'React app: useResources (live) + useChannel (react external)',
    label: 'React app: `useResources` (live) + `useChannel`',
    imports: '`@tandem/core/client`, `@tandem/realtime`, `@tandem/react`',
    source: `import { createClient } from '@tandem/core/client'; export { createClient }; export { createRealtime } from '@tandem/realtime'; export { TandemProvider, useResources } from '@tandem/react'; export { useChannel } from '@tandem/react/realtime'`,
    external: REACT,
    budget: 33265, // a ratchet at today's size: the goal is missed (the two apps above plus the cache and the hooks); 31.42 kB (issue 28): the cache reads its own defaults, DEFAULTS dropped; 30.99 kB (issue 28): presence and history out of the channel (-436 bytes); -845 bytes (issue 28): development-only error sentences; 30.24 kB (issue 28): the debug log only when asked for; +78 bytes over the last budget (issue 28 review: production messages keep their evidence); -114 bytes (issue 28): the logger only for a client given one; +92 bytes (issue 30): the cache's onChange and hydrate's freshMs, createClient's `outbox` option, OutboxFullError among the error guards' names (243, 26 and 22 bytes minified); +59 bytes (issue 30): createRealtime's `outbox` option and publish's `idempotencyKey` option; +4 bytes (issue 30 review): hydrate's freshMs alone decides a restored entry's freshness; +306 bytes (issue 31): callId on the client's events, cache.inspect(), rt.channels() and the frame tap watchFrames reads (44 bytes); +46 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them); +20 bytes (issue 33): a prefetched live list resumes its channel from the server's position (no refetch after hydration), channel(name, since); +2010 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line) and the lines of every collection the cache may hold (live pushes and restored lists are checked), the bucket, lock data outside the contract ignored; +89 bytes (issue 45): every error a query, mutation or live source exposes is a TandemError (a thrown non-Tandem value wrapped, kept as cause); development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +6 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +141 bytes (issue 46): the machines and compositions of issue 46 (autocomplete, realtime, outbox); -17 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -86 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +233 bytes (issue 48): the same client growth (files seam, FileError, contract lines for attachments and customerRead); +268 bytes (issue 48 review): the same client growth as maps-only
    target: 25_300,
    peers: ['pusher-js + @tanstack/react-query (react external)', 'pusher-js + swr (react external)'],
  },
  {
    id: 'whole-sdk',
    name: 'whole SDK, everything (react external)',
    label: 'whole SDK',
    imports: '`@tandem/core`, `@tandem/realtime`, `@tandem/react`',
    source: `export { createClient, isTandemError, bindLiveResources } from '@tandem/core'; export { createRealtime } from '@tandem/realtime'; export { ${HOOKS} } from '@tandem/react'; export { ${RT_HOOKS} } from '@tandem/react/realtime'`,
    external: REACT,
    budget: 38143, // a ratchet at today's size: the goal is missed (every service on one client, the cache, realtime, the hooks); 35.04 kB (issue 28): DEFAULTS and the cache defaults apart; 34.94 kB (issue 28): history out of the channel (-116 bytes); -1003 bytes (issue 28): development-only error sentences; 34.07 kB (issue 28): the debug log only when asked for; +86 bytes over the last budget (issue 28 review: production messages keep their evidence); +72 bytes (issue 28): logTo and the modular client's refusal of a console-shaped logger; +86 bytes (issue 30): the cache's onChange and hydrate's freshMs, createClient's `outbox` option, OutboxFullError among the error guards' names (243, 26 and 22 bytes minified); +47 bytes (issue 30): createRealtime's `outbox` option and publish's `idempotencyKey` option; +2 bytes (issue 30 review): hydrate's freshMs alone decides a restored entry's freshness; +360 bytes (issue 31): callId on the client's events, cache.inspect(), rt.channels() and presence members for it, the frame tap watchFrames reads (50 bytes); +139 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them), and autocompletePlaces on client.maps (createAutocomplete is not in it); +18 bytes (issue 33): a prefetched live list resumes its channel from the server's position (no refetch after hydration), channel(name, since); +2684 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line) and every answer line of every service, the bucket, credentials and empty values refused in a query; +118 bytes (issue 45): every error a query, mutation or live source exposes is a TandemError (a thrown non-Tandem value wrapped, kept as cause); development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +10 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +102 bytes (issue 46): the machines and compositions of issue 46 (autocomplete, realtime, outbox); -99 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +2 bytes (issue 47): the contract's two push error codes in the code list; +287 bytes (issue 48): files on writes (seam, FileError, uploads store entry points), the contract's attachment lines; the uploader (tus-js-client) stays out: it is the `uploader` row; +290 bytes (issue 48 review): the same client growth, checkFiles in the uploads entry
    target: 29_000,
    peers: ['the stack Tandem replaces: pusher-js + @tanstack/react-query + ky'],
  },
  {
    id: 'messenger-closed',
    name: 'drop-in messenger, closed: <tandem-messenger> with its launcher and unread badge (core and realtime external)',
    label: 'drop-in messenger, closed',
    imports: '`@tandem/messenger` (`defineMessenger`), until the panel opens',
    source: `export * from '@tandem/messenger'`,
    external: [...PEERS_OF_MESSENGER, MESSENGER_PANEL],
    budget: 3747, // today's size; issue 29's goal is 5 kB: the element, the launcher's styles, the strings, drafts (the panel is a chunk of its own); -122 bytes (issue 43): module order, no code of its own changed; +42 bytes (issue 44): the article strings (Markdown rendering's labels); +326 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -39 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +184 bytes (issue 47): the push control's seven overridable strings and the element's `push` property (shutdown() turns push off); the control itself is in the lazy panel; +325 bytes (issue 47 review): a hidden tab's own notification of an agent's reply (the element hears replies while a push controller is set, asks me() once for the channel, hands the message to showIfHidden, which shapes it) and a `push` setter that takes only a controller; +332 bytes (issue 48): the 12 file strings (attach, remove, sizes, refusals, progress, cancel) in the one overridable strings table; still under the 5 kB goal; +58 bytes (issue 48 review): two more file strings (a long name, a send waiting to retry); +2 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    target: 5_000,
    peers: [],
  },
  {
    id: 'messenger-open',
    name: 'drop-in messenger, open: <tandem-messenger> and its panel (core and realtime external)',
    label: 'drop-in messenger, open',
    imports: '`@tandem/messenger`, with the panel it imports on first open',
    source: `export * from '@tandem/messenger'`,
    // The Markdown renderer (marked) is a chunk of its own, loaded when an article opens (issue 44).
    external: [...PEERS_OF_MESSENGER, MESSENGER_MARKDOWN],
    budget: 11694, // today's size; issue 29's goal is 25 kB: the closed messenger plus the list, thread, composer, help search and their styles; -41 bytes (issue 43): module order, no code of its own changed; +350 bytes (issue 44): articles rendered from Markdown as DOM nodes (the renderer and marked are a chunk of their own, loaded when an article opens, external here); +268 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -46 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +573 bytes (issue 47): the "Notify me of replies" control (states, announcements, focus) and its styles; +311 bytes (issue 47 review): the same, counted in the open messenger too; +3455 bytes (issue 48): files in the panel: attach button, drop and paste, chips with canvas thumbnails, refusal sentences, a progress bar with Cancel per sending message, sent files as thumbnails and links, the customer's typing, and their styles; the uploader itself is its own chunk; +938 bytes (issue 48 review): one file check (core's checkFiles), links only for http(s), thumbnails decoded to size when visible and capped at 40 MP, expired links fetched fresh, Cancel for a send waiting to retry, a retried draft keeping its key, re-announced refusals; -26 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    target: 25_000,
    peers: [],
  },
  {
    id: 'persist',
    name: 'saved cache + durable outbox: createClient({ outbox: durableOutbox() }) + support + persistCache (idb-keyval included)',
    label: 'saved cache + durable outbox',
    imports: '`@tandem/core/client`, `@tandem/core/support`, `@tandem/core/persist` (`durableOutbox`, `persistCache`)',
    source: `import { createClient } from '@tandem/core/client'; import { support } from '@tandem/core/support'; import { durableOutbox, persistCache } from '@tandem/core/persist'; export const start = (o, key) => { const outbox = durableOutbox({ key }); const client = createClient({ ...o, outbox }); return { support: support(client), persister: persistCache(client, { key, outbox }) } }`,
    budget: 30432, // today's size (issue 30): the vanilla support app with a durable outbox and a saved cache; +454 bytes (issue 30 review): see @tandem/core/persist; +19 bytes: the same; +127 bytes: the same; +151 bytes (issue 31): callId on the client's events, cache.inspect(); +46 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them); +25 bytes (issue 30, found under load): a send that ends after a logout writes no outbox list back; +3682 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line) and every collection's item line (each restored or posted entry is checked on its own), the contract's write paths (matchWrite: lanes per resource, a stored write checked before it is sent), own-key merges; a change that lands after a logout writes nothing back; +797 bytes (issue 44): a logout holds in every tab (the key's session record, guarded writes, the cleared event); +35 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); -16 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +2090 bytes (issue 46): the durable outbox and the saved cache as pure machines with runners (tables, effects as data), the cross-tab election and bus; -262 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +244 bytes (issue 49): the durable outbox writes each held write under its own key (one record per change instead of the whole list: O(n) bytes written for n writes, not O(n²)); old lists migrate once; a storage without keys() refused (+674 as first written, -416 trimmed: one path, idb-keyval for the store only, one safe wrapper); +28 bytes (issue 49): the outbox's order from the microsecond clock (two tabs storing within one millisecond tied on Date.now()); +33 bytes (issue 47): onCleared, the one tab bus's `cleared` message alone (push listens to it), and the contract's two push error codes; +1216 bytes (issue 48): the durable outbox holds a write's files with it (checked on the way in and on every read), keeps their upload URLs under the key and clears them on logout; plus the contract's attachment lines; +367 bytes (issue 48 review): the outbox ends a held write's sender at logout, deletes the uploads of a removed write, bounds held files (maxFileBytes)
    target: undefined, // issue 30 sets none; it asks that an app without persistence pay 0 bytes for it (the entry's absentFrom)
    peers: [],
  },
  {
    id: 'uploader',
    name: 'the uploader: what the first write with files loads (tus-js-client included; counted with the core modules it shares)',
    label: 'the uploader (first write with files)',
    imports: 'nothing: `reply(id, { text, files })` loads it by import()',
    source: `export * from '../../packages/core/src/uploads/send-files.ts'`,
    budget: 20804, // today's size (issue 48): tus-js-client with the SDK's uploader (a Blob read chunk by chunk, token per request in a header, the outbox's one backoff, one DELETE per cancelled upload), counted with the core modules it shares; +1148 bytes (issue 48 review): its own HEAD before a resume (only 404/410 start anew), the origin check before the token goes, Retry-After on a 429, a write that fails for good deletes its uploads, a creation answered before its delete
    target: undefined, // issue 48 sets none; it asks that an app sending no files pay 0 bytes for it
    peers: ['tus-js-client'],
  },
]

/** The packages that run in browsers: each public `exports` entry of theirs has a row in ENTRIES. */
export const BROWSER_PACKAGES = [
  '@tandem/contract',
  '@tandem/core',
  '@tandem/realtime',
  '@tandem/react',
  '@tandem/messenger',
  '@tandem/devtools',
  '@tandem/next',
  '@tandem/elements',
]

/** Packages and entries with no row, and why (src/__tests__/entries.test.ts reads this). */
export const NO_ROW = {
  '@tandem/server': 'runs on your backend (tokens, webhooks), never in a browser bundle',
  '@tandem/emulator': 'for development and tests, in Node',
  '@tandem/next/server':
    'runs in server components and route handlers (a server client, prefetch, the token route), never in a browser bundle',
  '@tandem/core/internal':
    "helpers for Tandem's own packages, no public API; its bytes are in every use case with realtime",
  '@tandem/contract/spec': 'the OpenAPI and AsyncAPI documents as objects, for tooling',
  '@tandem/contract/openapi.json': 'a document, for tooling',
  '@tandem/contract/asyncapi.json': 'a document, for tooling',
  '@tandem/contract/dev':
    'one constant (DEV) that bundlers fold by their mode (export conditions); it leaves no bytes of its own, and the sentences it guards are dropped in production',
}

/** The other Tandem packages and React stay external: an entry's row is what the entry itself ships. */
const external = (entry) => [
  ...['@tandem/core', '@tandem/realtime', '@tandem/react']
    .filter((p) => entry !== p && !entry.startsWith(`${p}/`))
    .flatMap((p) => [p, `${p}/*`]),
  ...REACT,
]
/** Every use case above: no app of them imports push, so none may hold its bytes. */
const EVERY_USE_CASE = USE_CASES.map((u) => u.id)
const entry = (name, fields) => ({
  name,
  entry: name,
  source: `export * from '${name}'`,
  external: external(name),
  ...fields,
})

/**
 * One row per public entry point: everything it exports, with its budget. An optional entry says
 * which modules are its own (`owns`, path prefixes as `measure` prints them) and the use cases
 * that must not contain any of them (`absentFrom`): an app that does not import it pays 0 bytes.
 * The others say why every app of theirs has them (`base`). No goals: issue 28 sets none per entry point.
 */
export const ENTRIES = [
  entry('@tandem/contract', {
    budget: 8136, // today's size; the constants and list rules every package reads; +28 bytes (issue 28): ERROR_DOCS, the link production error messages end with; +258 (issue 29): the customer rules (scope, id, channel, events) and resource presence's (channel, TTLs), each tree-shaken from apps that do not read it; +33 bytes (issue 30): QUERY_POSTS, the POSTs that change nothing (an array literal: tree-shaken where unused); +531 bytes (issue 32): the place autocomplete's match rule (foldText, parseAutocompleteInput, suggestionWords, wordsMatch, suggestionMatches, extendsInput) and AUTOCOMPLETE_LIMIT, tree-shaken from apps that do not autocomplete (not in LIMITS, which every package reads); +3539 bytes (issue 43): the answer lines of every REST answer and channel payload, matchWrite and its paths, the shape check, the new limits (each tree-shaken from apps that do not read it); +378 bytes (issue 44): the autocomplete match rule for addresses as people write them (number before or after the street); +45 bytes (issue 46): CUSTOMER_EVENT_FIELDS (the messenger's pushes checked by the one shape check), isObject/isRecord; -13 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +624 bytes (issue 47): Web Push's limits, key and endpoint rules, the payload's line and isPushPayload (in the root entry; tree-shaken from apps without push); +275 bytes (issue 47 review): pushPayloadOf, the one derivation of a push payload (the service's and a hidden tab's), and the subscription page's line; +569 bytes (issue 48): uploads' limits, media types and ids, customer typing's TTL, the upload error codes and their docs, the Attachment and customerRead answer lines; +82 bytes (issue 48 review): the upload name rule (no controls or bidi overrides, no slashes)
    base: 'the wire rules, read by every package',
  }),
  entry('@tandem/contract/frame-fields', {
    budget: 1238, // today's size; the realtime frame checks generated from the AsyncAPI; +489 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); +13 bytes (issue 46): CUSTOMER_EVENT_FIELDS (the messenger's pushes checked by the one shape check), isObject/isRecord; -19 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry)
    base: 'the frame checks, read by every realtime app',
  }),
  entry('@tandem/core', {
    budget: 25449, // today's size; createClient with every service, the cache and the errors; +47 bytes (issue 28): it also exports collection() and CACHE_DEFAULTS; -666 bytes (issue 28): development-only error sentences; +68 bytes over the last budget (issue 28 review: production messages keep their evidence); +57 bytes (issue 28): logTo and the modular client's refusal of a console-shaped logger; +26 bytes (issue 29): DEFAULTS.typingTimeoutMs and helpSearchDebounceMs (the messenger's); +165 bytes (issue 30): the cache's onChange and hydrate's freshMs, DEFAULTS.persist (PERSIST_DEFAULTS), OutboxFullError and isOutboxFullError, the `outbox` option (243, 109, 90 and 26 bytes minified); +3 bytes (issue 30 review): hydrate's freshMs alone decides a restored entry's freshness; +158 bytes (issue 31): callId on the client's events, cache.inspect(); +227 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them), autocompletePlaces on maps(client), DEFAULTS.autocomplete; +18 bytes (issue 33): the live binding looks up a hydrated list's channel position (its writer, handOver, is in @tandem/core/internal); +2872 bytes (issue 43): every answer checked against its line, the rate limit's bucket, page caps (too_many_pages), credentials and empty values refused in a query; +70 bytes (issue 45): every error a query, mutation or live source exposes is a TandemError (a thrown non-Tandem value wrapped, kept as cause); development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +7 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); -19 bytes (issue 46): createBaseClient and the client's cache slot; -14 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +1 bytes (issue 47): the contract's two push error codes in the code list; +362 bytes (issue 48): files on writes (seam, FileError, the upload types), the contract's attachment lines; +274 bytes (issue 48 review): the seam for deleting a removed write's uploads, the name rule
    base: 'the full client: every service and the cache on one object',
  }),
  entry('@tandem/core/client', {
    budget: 15243, // today's size; the modular client (ofetch, token provider, rate limits, errors); 13.11 kB (issue 28): the generic collection is a function of its own; -509 bytes (issue 28): development-only error sentences; +70 bytes over the last budget (issue 28 review: production messages keep their evidence); +56 bytes (issue 28): logTo exported, and the refusal of a console-shaped logger; +25 bytes (issue 30): the `outbox` option and OutboxFullError among the error guards' names (26 and 22 bytes minified); +36 bytes (issue 31): callId on the client's events; +34 bytes (issue 32): the rateLimit event's `remaining` and `limit` (the limiter tells them when a response changes them); +1827 bytes (issue 43): answers checked (the shape check), the bucket, credentials and empty values refused in a query; +15 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +3 bytes (issue 46): createBaseClient and the client's cache slot; -25 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +304 bytes (issue 48): the files seam and FileError; the contract's attachment lines; +269 bytes (issue 48 review): the same
    base: 'the modular client every REST app starts from',
  }),
  entry('@tandem/core/maps', {
    budget: 7413, // today's size; 2.44 kB (issue 28): maps(client).resources brings the generic collection, no longer a method of the client; -185 bytes (issue 28): development-only error sentences; +19 bytes over the last budget (issue 28 review: production messages keep their evidence); +2,353 bytes (issue 32): createAutocomplete (the store with its LRU, prefix refinement and quota policy, select), the contract's match rule it shares with the service, autocompletePlaces; +46 bytes (issue 32 review): select finds the chosen place by its id or its point, not the first of a shared name (Portland, Maine and Oregon); +1788 bytes (issue 43): each maps call's answer line; +316 bytes (issue 44): the same rule in createAutocomplete's refinement; +8 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +33 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +631 bytes (issue 46): maps autocomplete as a pure machine (TABLE, effects as data) with one writer; -41 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -8 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -15 bytes (issue 47): module order, the same code; +5 bytes (issue 48): module order
    owns: ['core/src/services/maps'], // maps.ts and maps/, a module per call
    absentFrom: ['realtime-only'],
  }),
  entry('@tandem/core/support', {
    budget: 3407, // today's size; 2.17 kB (issue 28): support(client) brings the generic collection, no longer a method of the client; -161 bytes (issue 28): development-only error sentences; +20 bytes over the last budget (issue 28 review: production messages keep their evidence); +1167 bytes (issue 43): each support answer's line (the shape check comes with it when alone); +10 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +9 bytes (issue 46): createBaseClient and the client's cache slot; -18 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +188 bytes (issue 48): reply and note take files; text may be empty with files; attachments on threads and customerRead on conversations checked
    owns: ['core/src/services/support.ts'],
    absentFrom: ['maps-only', 'realtime-only'],
  }),
  entry('@tandem/core/realtime-rest', {
    budget: 2712, // today's size; +47 bytes (issue 28): the client check of collection(client, …); -144 bytes (issue 28): development-only error sentences; +11 bytes over the last budget (issue 28 review: production messages keep their evidence); +1087 bytes (issue 43): each realtime REST answer's line (the shape check comes with it when alone); +4 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +10 bytes (issue 46): createBaseClient and the client's cache slot; -9 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +1 bytes (issue 48): module order
    owns: ['core/src/services/realtime.ts'],
    absentFrom: ['maps-only', 'realtime-only'],
  }),
  entry('@tandem/core/cache', {
    budget: 9910, // today's size; the resource cache, its queries, observers, mutations, live binding; 7.71 kB (issue 28): the generic collection and the cache defaults moved here from the client; -90 bytes (issue 28): development-only error sentences; +8 bytes over the last budget (issue 28 review: production messages keep their evidence); +74 bytes (issue 30): onChange, what the saved cache listens to, and hydrate's freshMs (243 bytes minified); +115 bytes (issue 31): cache.inspect() (entries with refetch, invalidate, remove); +3 bytes (issue 33): the live binding looks up a hydrated list's channel position; +1821 bytes (issue 43): the item lines of the collections (live pushes, hydrated and restored entries checked), own-key structural sharing; +170 bytes (issue 45): every error a query, mutation or live source exposes is a TandemError (a thrown non-Tandem value wrapped, kept as cause); development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +9 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); -24 bytes (issue 46): createBaseClient and the client's cache slot; -20 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -1 bytes (issue 47): module order, the same code; +120 bytes (issue 48): the contract's answer lines for attachments and customerRead
    owns: ['core/src/cache/'],
    absentFrom: ['maps-only', 'realtime-only'],
  }),
  entry('@tandem/core/messenger', {
    budget: 7368, // today's size (issue 29); messenger(client): the customer's REST calls, the payload checks, the live list, unread counts, threads and help search; +12 bytes (issue 30): OutboxFullError among the error guards' names (22 bytes minified); +1011 bytes (issue 43): the customer answers and pushes checked with the generated lines, page caps; +9 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +42 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +693 bytes (issue 46): the thread and the conversation table as pure machines with one runner; -3 bytes (issue 46): one storeTable for both messenger stores; -19 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +5 bytes (issue 47): the contract's two push error codes in the code list; +411 bytes (issue 48): start and reply take files, the customer's typing (renewed at most every 2 s, never stored), Messenger.client, attachments on messages; +317 bytes (issue 48 review): typing throttles every change, the last state sent when the window ends
    owns: ['core/src/messenger/'],
    absentFrom: ['maps-only', 'realtime-only', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/core/persist', {
    budget: 18676, // today's size (issue 30); persistCache, durableOutbox, clearPersisted and idb-keyval; alone it includes the resource cache, which a persisting app has anyway; +470 bytes (issue 30 review): logout generations, abort while storing, rollbacks across tabs, entries checked before hydrate, QUERY_POSTS; +19 bytes: a new write goes to the other tabs with its news (shown before they read the list); +128 bytes: a new write is announced to the other tabs before it is stored (they show it at once, and send it only once stored); +102 bytes (issue 31): cache.inspect() (entries with refetch, invalidate, remove) (the persist entry includes the cache); +13 bytes (issue 30, found under load): a send that ends after a logout writes no outbox list back; +3385 bytes (issue 43): restored and posted entries checked one by one, the contract's write paths for lanes and replay checks, the item lines; +779 bytes (issue 44): a logout holds in every tab: the key's session record, writes guarded by it, outbox admission, the cleared event; +40 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); -15 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +2108 bytes (issue 46): the durable outbox and the saved cache as pure machines with runners (tables, effects as data), the cross-tab election and bus; -247 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +234 bytes (issue 49): the durable outbox writes each held write under its own key (one record per change instead of the whole list); old lists migrate once; a storage without keys() refused; +25 bytes (issue 49): the outbox's order from the microsecond clock (two tabs storing within one millisecond tied on Date.now()); +31 bytes (issue 47): onCleared, the one tab bus's `cleared` message alone (push listens to it); +1047 bytes (issue 48): the durable outbox holds a write's files with it (checked in and on every read), keeps their upload URLs under the key, clears them on logout; +340 bytes (issue 48 review): senders end at logout; a removed write's uploads deleted; maxFileBytes
    owns: ['core/src/persist/', 'idb-keyval/'],
    // Issue 30: 0 bytes for an app that does not import it (createClient's `outbox` option is a type and one call).
    absentFrom: ['maps-only', 'realtime-only', 'tabs', 'react-app', 'whole-sdk', 'messenger-closed', 'messenger-open'],
  }),
  entry('@tandem/core/push-worker', {
    budget: 1955, // today's size (issue 47): handlePush(self) for the app's service worker: the payload's shape check (1.4 kB of it is the one shape check), one notification per message, click to focus or open, the tokenless renew; +1 bytes (issue 47 review): module order, the same code
    owns: ['core/src/push-worker/'],
    absentFrom: EVERY_USE_CASE, // issue 47: 0 bytes for an app that does not import push
  }),
  entry('@tandem/core/push', {
    budget: 5688, // today's size (issue 47): createPush (enable from a click, the service's key, register, keep current, remove on disable/logout/revoke), its machine and runner, showIfHidden; +612 bytes (issue 47 review): consent per subject at start (this subject's list read and checked against the contract), a click during a removal remembered, listeners told last and each isolated, the record deleted before the browser unsubscribes; a hidden tab's message shaped by pushPayloadOf with the controller's url; +3 bytes (issue 48): module order
    owns: ['core/src/push/'],
    absentFrom: EVERY_USE_CASE, // issue 47: 0 bytes for an app that does not import push
  }),
  entry('@tandem/core/uploads', {
    budget: 1536, // today's size (issue 48): uploads(client), the progress store of writes with files (bytesSent, bytesTotal per file and message) and cancel; the uploader is the client's import(); +596 bytes (issue 48 review): checkFiles exported (one file check for the messenger and apps)
    owns: ['core/src/uploads/uploads.ts', 'core/src/uploads/uploads-store.ts'],
    // The uploader feeds the progress store: it is the one row that may hold it.
    absentFrom: EVERY_USE_CASE.filter((id) => id !== 'uploader'),
  }),
  entry('@tandem/realtime', {
    budget: 14596, // today's size; createRealtime on partysocket, core external; 13.76 kB (issue 28: presence and history entries of their own, -601 bytes); -295 bytes (issue 28): development-only error sentences; 13.55 kB (issue 28): the debug log only when asked for; +12 bytes over the last budget (issue 28 review: production messages keep their evidence); +22 bytes (issue 29): DEFAULTS.resourcePresence; +87 bytes (issue 30): the `outbox` option and publish's `idempotencyKey` option; +126 bytes (issue 31): rt.channels() and the frame tap watchFrames reads; +7 bytes (issue 33): channel(name, since), a channel resumed from a given position; +490 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); +321 bytes (issue 44): the message log in chunks a snapshot shares (an append at the cap copies two chunks, not 10,000 items); +15 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +88 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -12 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; -19 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry)
    base: 'the realtime client',
  }),
  entry('@tandem/realtime/positions', {
    budget: 1468, // today's size; resume after a reload; -21 bytes (issue 28): development-only error sentences; +480 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); +34 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -24 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry)
    owns: ['realtime/src/positions.ts', 'realtime/src/messages/positions.ts'],
    absentFrom: ['realtime-only', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/realtime/tabs', {
    budget: 9485, // today's size; alone it includes partysocket, which the realtime client shares; -60 bytes (issue 28): development-only error sentences; +502 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); -49 bytes (issue 45): module order, the same code; -239 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -100 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); -1 bytes (issue 47): module order, the same code
    owns: ['realtime/src/tabs.ts', 'realtime/src/tabs/'],
    absentFrom: ['realtime-only', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/realtime/presence', {
    budget: 2021, // today's size; presence(channel) and presenceStore (issue 28: out of the channel); -17 bytes (issue 28): development-only error sentences; +32 bytes (issue 31): a presenceStore's members for rt.channels(); +524 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); +41 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -107 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry)
    owns: ['realtime/src/presence-entry.ts', 'realtime/src/presence/'],
    absentFrom: ['realtime-only', 'react-app'],
  }),
  entry('@tandem/realtime/resource-presence', {
    budget: 4709, // issue 29: resourcePresence and collectionPresence, one member per connection on a collection's presence channel (presence itself included); +32 bytes (issue 31): a presenceStore's members for rt.channels(); +626 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); lock data outside the contract ignored, the lapse timer clamped, echoes compared without the fields the service stamps; +64 bytes (issue 44): a lock's waiting queue (waiting: { position }); +72 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -44 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +1 bytes (issue 48): module order; +12 bytes (issue 48 review): module order (the contract's unshowable set in a module of its own)
    owns: ['realtime/src/resource-presence.ts', 'realtime/src/resource-presence/'],
    absentFrom: ['realtime-only', 'tabs', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/realtime/debug', {
    budget: 677, // debugLog() for createRealtime's `debug` option (issue 28: the logger only when asked for; redact is core's); +36 bytes (issue 28 review: production messages keep their evidence; debugLog() branded); +322 bytes (issue 31): watchFrames, the frames parsed and redacted here rather than in createRealtime (an app that imports it pays +373 bytes, core's redact included); +9 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps
    owns: ['realtime/src/debug.ts', 'realtime/src/debug/watch-frames.ts'],
    absentFrom: ['realtime-only', 'tabs', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/realtime/history', {
    budget: 1318, // today's size; history(channel, options) (issue 28: out of the channel; the gap fill stays in it); -61 bytes (issue 28): development-only error sentences; +486 bytes (issue 43): the one shape check (nested paths, optional and nullable fields, enums; compiled once per line); +1 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none); +34 bytes (issue 46): realtime by concept: the link and the runner pass named parts; per-client parts instead of module-level WeakMaps; -22 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry)
    owns: ['realtime/src/history.ts', 'realtime/src/messages/history-options.ts'],
    absentFrom: ['realtime-only', 'react-app', 'whole-sdk'],
  }),
  entry('@tandem/react', {
    budget: 1621, // today's size; the provider and the REST hooks; +10 bytes (issue 28): the provider names collection(client) to a modular client; -121 bytes (issue 28): development-only error sentences; +299 bytes (issue 32): usePlaceAutocomplete; +84 bytes (issue 32 review): a changed option (near following the map) carries what is being typed into the new store, before paint; +5 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none)
    base: 'the provider and the REST hooks',
  }),
  entry('@tandem/react/messenger', {
    budget: 630, // today's size (issue 29); MessengerProvider, useUnreadCount, useCustomerConversations, useCustomerThread, useHelpSearch; +4 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none)
    owns: [
      'react/src/messenger.ts',
      'react/src/use-messenger.tsx',
      'react/src/use-customer-stores.ts',
      'react/src/use-help-search.ts',
    ],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
  entry('@tandem/react/persist', {
    budget: 387, // today's size (issue 30); PersistGate, usePersistStatus, useOutbox: bindings only (the logic is @tandem/core/persist, external here); -10 bytes (issue 43): module order
    owns: ['react/src/persist.ts', 'react/src/persist-gate.tsx', 'react/src/use-outbox.ts'],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
  entry('@tandem/react/push', {
    budget: 198, // today's size (issue 47): usePush, a binding only (the logic is @tandem/core/push, external here)
    owns: ['react/src/push.ts', 'react/src/use-push.ts'],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
  entry('@tandem/react/uploads', {
    budget: 308, // today's size (issue 48): useUploads, a binding only (the logic is @tandem/core/uploads, external here)
    owns: ['react/src/uploads.ts', 'react/src/use-uploads.ts'],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
  entry('@tandem/react/realtime', {
    budget: 1062, // today's size; useChannel, useMessages, usePresence, useConnectionState; -73 bytes (issue 28): development-only error sentences; -10 bytes (issue 43): module order; +43 bytes (issue 44): useMessages returns chunks and count; +4 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none)
    base: 'the realtime hooks, in every React app with realtime',
  }),
  entry('@tandem/react/resource-presence', {
    budget: 573, // issue 29: useResourcePresence and useCollectionPresence, bindings only (the logic is @tandem/realtime/resource-presence, external here); -5 bytes (issue 43): module order; +6 bytes (issue 44): the waiting position; +5 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none)
    owns: ['react/src/resource-presence.ts', 'react/src/use-resource-presence.ts'],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
  entry('@tandem/elements', {
    budget: 1358, // issue 46: the launcher element base and DOM helpers the messenger and the devtools share (h and sheet moved out of @tandem/core); +5 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    base: 'in every page with the messenger or the devtools',
  }),
  entry('@tandem/messenger', {
    budget: 3747, // today's size; what a page loads until the messenger opens: the panel, an import() of its own, is left out (the messenger-open use case counts it); -122 bytes (issue 43): module order; +42 bytes (issue 44): the article strings (Markdown rendering's labels); +326 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -39 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +184 bytes (issue 47): the push control's seven overridable strings and the element's `push` property (shutdown() turns push off); +325 bytes (issue 47 review): a hidden tab's own notification of an agent's reply, handed to the controller's showIfHidden; a `push` setter that takes only a controller; +332 bytes (issue 48): the 12 file strings in the overridable strings table; +58 bytes (issue 48 review): two more file strings; +2 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    external: [...external('@tandem/messenger'), MESSENGER_PANEL],
    base: 'the whole entry: a page that shows the messenger loads all of it',
  }),
  entry('@tandem/messenger/browser', {
    budget: 33235, // issue 45: the one-script-tag build, self-contained (core, realtime, ofetch, partysocket, nanoevents bundled in); what a plain page loads until the messenger opens (the panel and the Markdown renderer are chunks of their own, loaded on first open and first article); +29 bytes (issue 45): one asTandemError for the cache, the outbox, autocomplete and the messenger's stores (there were four copies); +1051 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -27 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +7 bytes (issue 46): module order after the shared storeTable, the same code; -67 bytes (issue 49: the token provider's exact attemptSignal without the shared-timeout code; resource-presence and refresh-margin defaults in their own modules; emit without a copy; has-fields' development-only sentence; the durable outbox per entry); +178 bytes (issue 47): the push control's strings and the element's `push` property; +282 bytes (issue 47 review): a hidden tab's own notification of an agent's reply; a `push` setter that takes only a controller; +789 bytes (issue 48): the file strings and the panel's files code, inlined in the one-file build (the uploader is tandem-messenger-uploads.js, loaded with the first message with files); +405 bytes (issue 48 review): the messenger's and core's review changes, inlined in the one-file build; +6 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    external: [MESSENGER_PANEL, MESSENGER_MARKDOWN],
    base: 'the whole entry: a page that loads the script tag loads all of it',
  }),
  // The devtools in production, as every row here is measured: what an app that imports them ships.
  // Their size where they run, a development build, is in devtools-size.mjs (DEVTOOLS_ROWS).
  entry('@tandem/devtools', {
    budget: 256, // today's size (issue 31): in production the four functions are no-ops and the element's import() is folded away (nothing is external here: a kept import() would inline the element and blow the budget); their size in development: devtools-size.mjs; +42 bytes (issue 31 review): createDevtoolsRecorder's switch
    base: 'a development tool: in production, no-op wrappers only',
  }),
  entry('@tandem/devtools/production', {
    budget: 5897, // today's size (issue 31): the element, its launcher, the recorder and its rings, the strings, emulatorActions; the panel (a chunk of its own, 5.79 kB) is not counted; +95 bytes (issue 31 review): a given recorder (not stopped with the element), the 'recording started' row; -102 bytes (issue 43): module order; +331 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -19 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop; +3 bytes (issue 48 review): one icon() for the launcher and the panel in @tandem/elements (there were two copies)
    external: [...external('@tandem/devtools'), '*/panel/index.js'],
    base: 'the devtools in any build, for a staging site: an app imports it on purpose (the panel, an import() of its own, is left out)',
  }),
  entry('@tandem/devtools/react', {
    budget: 193, // today's size (issue 31): in production <TandemDevtools /> renders null; +5 bytes (issue 31 review): the recorder prop and its import() is folded away (nothing external, as above)
    base: 'a development tool: in production, <TandemDevtools /> is `() => null`',
  }),
  entry('@tandem/next', {
    budget: 790, // today's size (issue 33): <TandemNextProvider> (a client and realtime per page, the token route's answer) and <TandemHydrate> (the server's data into the cache, live lists handed their channel's position); @tandem/core, realtime and react external; +5 bytes (issue 45): development sentences guarded so a page without a bundler gets typed errors (DEV from @tandem/contract/dev beside the NODE_ENV test), the clock first read on use (a Next prerender reads none)
    owns: ['next/src/'],
    absentFrom: ['react-app', 'whole-sdk'],
  }),
]

/** Every Tandem row with a budget (npm test). */
export const TANDEM = [...USE_CASES, ...ENTRIES]

const PEERS = [
  { name: 'pusher-js', source: `export { default } from 'pusher-js'` },
  { name: 'ably (full: Realtime)', source: `export { Realtime } from 'ably'` },
  {
    name: 'ably/modular (BaseRealtime + WebSocketTransport + FetchRequest + RealtimePresence)',
    source: `export { BaseRealtime, WebSocketTransport, FetchRequest, RealtimePresence } from 'ably/modular'`,
  },
  { name: 'centrifuge', source: `export { Centrifuge } from 'centrifuge'` },
  { name: 'socket.io-client', source: `export { io } from 'socket.io-client'` },
  { name: '@supabase/realtime-js', source: `export { RealtimeClient } from '@supabase/realtime-js'` },
  {
    name: '@tanstack/react-query (provider, useQuery, useMutation; react external)',
    source: `export { QueryClient, QueryClientProvider, useQuery, useMutation } from '@tanstack/react-query'`,
    external: REACT,
  },
  {
    name: 'swr (useSWR + SWRConfig + useSWRMutation; react external)',
    source: `export { default, SWRConfig } from 'swr'; export { default as useSWRMutation } from 'swr/mutation'`,
    external: REACT,
  },
  { name: 'ofetch', source: `export { ofetch } from 'ofetch'` },
  { name: 'ky', source: `export { default } from 'ky'` },
  { name: 'tus-js-client', source: `export { Upload } from 'tus-js-client'` },
  {
    name: 'pusher-js + @tanstack/react-query (react external)',
    source: `export { default as Pusher } from 'pusher-js'; export { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'`,
    external: REACT,
  },
  {
    name: 'pusher-js + swr (react external)',
    source: `export { default as Pusher } from 'pusher-js'; export { default as useSWR } from 'swr'`,
    external: REACT,
  },
  {
    name: 'the stack Tandem replaces: pusher-js + @tanstack/react-query + ky',
    source: `export { default as Pusher } from 'pusher-js'; export { QueryClient, QueryClientProvider, useQuery, useMutation } from '@tanstack/react-query'; export { default as ky } from 'ky'`,
    external: REACT,
  },
]

/**
 * Bytes of one entry, minified, gzip -9 and brotli 11. `conditions` lets tests measure `src`;
 * `plugins` lets the upstream bench take a piece out.
 */
export async function measure(source, { external = [], conditions = [], plugins = [] } = {}) {
  const result = await build({
    stdin: { contents: source, resolveDir: new URL('.', import.meta.url).pathname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    external: [...external, ...UPLOADER],
    conditions,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    plugins,
  })
  const code = result.outputFiles[0].contents
  const inputs = Object.values(result.metafile.outputs)[0].inputs
  return {
    /** Every module, biggest first, minified bytes before gzip: where the next saving is. */
    modules: Object.entries(inputs)
      .map(([path, { bytesInOutput }]) => [shortPath(path), bytesInOutput])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    /** The bundle itself, for tests that read what shipped. */
    text: result.outputFiles[0].text,
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

/** `../../node_modules/ofetch/dist/x.mjs` → `ofetch/dist/x.mjs`; `../../packages/core/src/http.ts` → `core/src/http.ts`. */
const shortPath = (path) => path.replace(/^.*node_modules\//, '').replace(/^.*packages\//, '')

const sizes = ({ min, gzip, brotli }) => ({ min, gzip, brotli })

/**
 * Every row measured: what results/bundle.json holds, and all the docs' figures are rendered from.
 * From `src`, as the budgets test measures (so a figure and its budget agree; `dist`, built by tsc,
 * differs by a few bytes). Sizes only, so the figures are the same on every machine for the same code.
 */
export async function measureAll({ conditions = ['@tandem/source'] } = {}) {
  const measured = new Map()
  for (const e of [...TANDEM, ...PEERS])
    measured.set(e.name, await measure(e.source, { external: e.external, conditions }))
  const { readFileSync } = await import('node:fs')
  const esbuild = JSON.parse(readFileSync(new URL('../../node_modules/esbuild/package.json', import.meta.url), 'utf8'))
  return {
    command: 'npm run bench -- bundle',
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    esbuild: esbuild.version,
    method:
      'esbuild --bundle --minify, browser, ESM, NODE_ENV=production, Tandem from src; gzip -9, brotli 11; kB = 1,000 bytes',
    useCases: USE_CASES.map((u) => ({
      id: u.id,
      name: u.name,
      label: u.label,
      imports: u.imports,
      ...sizes(measured.get(u.name)),
      budget: u.budget,
      goal: u.target ?? null,
      peers: u.peers,
      modules: measured.get(u.name).modules.slice(0, 6),
    })),
    entries: ENTRIES.map((e) => ({ entry: e.entry, ...sizes(measured.get(e.name)), budget: e.budget })),
    peers: PEERS.map((p) => ({ name: p.name, ...sizes(measured.get(p.name)) })),
  }
}

export async function run() {
  const figures = await measureAll()
  // The devtools' own size (a development build), and the production check of the playground.
  figures.devtools = await (await import('./devtools-size.mjs')).measureDevtools()
  const { RESULTS_BLOCK, writeFigures } = await import('./bundle-figures.mjs')
  await writeFigures(figures)
  const size = (name) => figures.peers.find((p) => p.name === name)?.gzip
  return {
    // The chart's input (bench/figures.json, results.svg).
    figures: {
      sizes: figures.useCases.map((u) => ({
        name: u.name,
        gzip: u.gzip,
        goal: u.goal ?? undefined,
        peers: u.peers.map((p) => ({ name: p, gzip: size(p) })),
      })),
    },
    title: 'Bundle size (esbuild --bundle --minify, browser, ESM, NODE_ENV=production; kB = 1,000 bytes)',
    body: await RESULTS_BLOCK(figures),
  }
}
