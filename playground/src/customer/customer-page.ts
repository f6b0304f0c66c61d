// The customer's page: a customer token (scope support:customer, from our token endpoint's
// `?customer=`), its own realtime connection shared by its tabs, and the drop-in messenger.
import { createClient } from '@tandem/core'
import { messenger } from '@tandem/core/messenger'
import { durableOutbox } from '@tandem/core/persist'
import { defineMessenger } from '@tandem/messenger'
import { createRealtime } from '@tandem/realtime'
import { sessionPositions } from '@tandem/realtime/positions'
import { shareAcrossTabs } from '@tandem/realtime/tabs'
import { registerSW } from 'virtual:pwa-register'
import { showUserNotice } from '../app/user-notice.js'
import { createSessionPush } from '../lib/push.js'
import { tabUser } from '../lib/session.js'

const { user: customer, rejected } = tabUser('customer')
showUserNotice(rejected, customer, undefined, undefined, 'customer')

// The customer's messages (with their files) are stored before they are sent: a reload or a dropped
// network mid-upload resumes the files from where the service holds them and sends the message once.
// Keyed by customer, as everything saved here: two customers on one browser never share a message.
const outbox = durableOutbox({ key: `customer:${customer}`, retry: { baseMs: 500, maxMs: 5_000 } })
const client = createClient({
  baseUrl: location.origin,
  auth: { url: `/api/tandem-token?customer=${encodeURIComponent(customer)}` },
  outbox,
})
// The customer's tabs share one socket; a reload resumes the channel where this tab left it, so
// a reply that came meanwhile arrives once.
const realtime = createRealtime(
  { client },
  {
    tabs: shareAcrossTabs({ key: `customer:${customer}` }),
    positions: sessionPositions({ key: `tandem:realtime:customer:${customer}` }),
  },
)

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
$('user').textContent = customer
const state = $('state')
realtime.on('state', ({ current }) => {
  state.textContent = current
  state.dataset.state = current
})

// The app shell's worker (a production build; nothing in development) is where pushes land: the
// customer's page registers it too, since a customer may never open the inbox's page.
registerSW({ immediate: true })
// "Notify me of replies" in the messenger: agents' replies reach the customer while none of
// their tabs is open; a click opens this page with the conversation's id.
const push = createSessionPush(client, {
  url: `${location.origin}/customer.html?customer=${encodeURIComponent(customer)}&conversation={conversationId}`,
  // The demo turns on what the SDK leaves off: the service pushes nothing while this tab is open,
  // so a reply that reaches it hidden (another tab in front) is shown by the page itself.
  hiddenTab: true,
})

defineMessenger()
const element = document.querySelector('tandem-messenger')!
element.messenger = messenger(client, { realtime })
element.push = push

$('log-out').addEventListener('click', () => {
  // Logging out forgets the customer: the messenger's state, its drafts, held messages, the socket.
  element.shutdown()
  realtime.close()
  // Messages not sent yet (and their files) are this customer's: they do not wait for the next one.
  void outbox.clearPersisted()
  $('status').textContent = 'Logged out: the messenger holds nothing of this customer any more.'
  $<HTMLButtonElement>('log-out').disabled = true
})

if (import.meta.env.DEV) {
  // Dev only: cut this customer's socket without a close frame, as when Wi-Fi drops.
  const drop = $<HTMLButtonElement>('drop')
  drop.hidden = false
  drop.addEventListener('click', () => {
    void fetch(`/api/dev/drop?customer=${encodeURIComponent(customer)}`, { method: 'POST' })
  })
}
