// The playground's service worker, built by vite-plugin-pwa (injectManifest: this file, with the
// build's file list put in place of Workbox's manifest placeholder below). It holds the app shell (every page, script and
// style of the build) so a reload with the network off still paints the page, and the page then
// shows the saved inbox from IndexedDB. It never answers for the API: the SDK's saved cache is
// the data's offline copy, and a stale answer served from here would undo its revalidation.
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { handlePush } from '@tandem/core/push-worker'
import { NOT_A_PAGE } from './network-only.js'
import { PUSH_STRINGS } from './push-strings.js'

declare const self: ServiceWorkerGlobalScope

// ---- The app shell -------------------------------------------------------------------------
// Any query string (`?user=`, `?customer=`) names the same page: `/?user=ada` is `/index.html`.
precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/.*/] })
cleanupOutdatedCaches()
// A navigation to a path the build has no page for gets the app's page (as `vite preview` would
// answer), except the services' paths and files: those go to the network (and fail there offline).
// Nothing else is routed, so every request of the API goes to the network untouched.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [...NOT_A_PAGE] }))

// ---- Updates: the page asks ----------------------------------------------------------------
// A new version waits until the person clicks Reload in the page's notice (UpdateNotice.tsx),
// which posts SKIP_WAITING: a tab is never reloaded under someone typing a reply.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})
// The first install takes the open tabs at once, so the first visit already works offline.
clientsClaim()

// ---- Push (issue 47) -----------------------------------------------------------------------
// Web push lands in this worker (docs/push.md): a push is checked against the contract, shown once
// per message (the newest of a conversation in place of the older), a click focuses or opens its
// page, and a changed subscription is renewed with the playground's service (this origin).
handlePush(self, { strings: PUSH_STRINGS, baseUrl: self.location.origin })
