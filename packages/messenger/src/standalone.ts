// The entry of the self-contained browser build (dist/browser/tandem-messenger.js, built by
// scripts/build-browser.mjs): @tandem/core, @tandem/realtime and their dependencies bundled in, for
// a page without a bundler or an import map. Loading it registers <tandem-messenger>; an element
// that names its backend's token endpoint starts its own client, connection and messenger:
//
//   <script type="module" src="/tandem/tandem-messenger.js"></script>
//   <tandem-messenger token-url="/api/tandem-token"></tandem-messenger>
//
// A page that wires the messenger itself (strings, a logout, its own client) imports what it
// needs from the same file.
import { createClient } from '@tandem/core/client'
import { messenger, type Messenger } from '@tandem/core/messenger'
import { createRealtime } from '@tandem/realtime'
import { DEFAULTS } from './defaults.js'
import { TandemMessengerElement } from './element.js'

export { createClient, createRealtime, messenger, TandemMessengerElement }
export { isTandemError } from '@tandem/core/client'
export { defineMessenger } from './define.js'
export { DEFAULT_STRINGS, type MessengerStrings } from './strings.js'

/**
 * `<tandem-messenger>` as this build registers it. Connected with a `token-url` (where the page's
 * backend mints the customer's token, as `auth: { url }`) and no `messenger` set, it starts its
 * own: `createClient({ baseUrl, auth: { url } })` (`base-url`, when given, says where the services
 * are), a realtime connection, and `messenger(client, { realtime })`. Once: after `shutdown()` (a
 * logout) it stays shut until the page gives it another messenger.
 */
export class StandaloneMessengerElement extends TandemMessengerElement {
  #started = false

  override connectedCallback(): void {
    super.connectedCallback()
    const url = this.getAttribute('token-url')
    if (!url || this.#started || this.messenger) return
    this.#started = true
    // A refused option (a key in a URL) throws its ValidationError here, which the browser reports
    // as it does any error of an element's callback; the launcher stays, without a messenger.
    this.messenger = start(url, this.getAttribute('base-url'))
  }
}

function start(url: string, baseUrl: string | null): Messenger {
  const client = createClient({ ...(baseUrl ? { baseUrl } : {}), auth: { url } })
  return messenger(client, { realtime: createRealtime({ client }) })
}

// The one side effect, and the reason this file exists: the tag works as soon as the file loads.
if (globalThis.customElements && !customElements.get(DEFAULTS.tagName))
  customElements.define(DEFAULTS.tagName, StandaloneMessengerElement)
