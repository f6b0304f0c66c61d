// One connection for all tabs (shareAcrossTabs): this page shows its tab's role and what arrives.
// `?channels=a,b` picks the channels (default chat:lobby). The e2e tests and the bench drive it
// through `window.tandemTabs`.
import { createClient } from '@tandem/core'
import { createRealtime, type Message } from '@tandem/realtime'
import { sessionPositions } from '@tandem/realtime/positions'
import { shareAcrossTabs } from '@tandem/realtime/tabs'
import { showUserNotice } from './app/user-notice.js'
import { tabUser } from './lib/session.js'

const { user, rejected } = tabUser()
showUserNotice(rejected, user)
const client = createClient({
  baseUrl: location.origin,
  auth: { url: `/api/tandem-token?user=${encodeURIComponent(user)}` },
})
const tabs = shareAcrossTabs({ key: `user:${user}` })
const rt = createRealtime({ client }, { tabs, positions: sessionPositions({ key: `tandem:realtime:tabs:${user}` }) })

const $ = (id: string) => document.getElementById(id)!
const log = (text: string) => {
  const li = document.createElement('li')
  li.textContent = `${new Date().toLocaleTimeString()} ${text}`
  $('log').prepend(li)
}
$('user').textContent = user
$('tab-id').textContent = tabs.tabId
;($('back') as HTMLAnchorElement).href = `/?user=${encodeURIComponent(user)}`

tabs.on('role', ({ role, leader }) => {
  $('role').textContent = role
  $('role').dataset.role = role
  $('leader').textContent = leader === tabs.tabId ? 'this tab' : (leader ?? '-')
  log(
    role === 'leader'
      ? 'this tab leads: it holds the WebSocket'
      : `role: ${role}${leader ? ` (leader ${leader})` : ''}`,
  )
})
rt.on('state', ({ current, reason }) => {
  $('state').textContent = current
  $('state').dataset.state = current
  log(`connection ${current}${reason ? ` (${reason})` : ''}`)
})

/** Offsets delivered per channel, and when each arrived (performance clock, comparable across tabs). */
const seen: Record<string, number[]> = {}
const at: Record<string, number[]> = {}
let count = 0
const names = (new URL(location.href).searchParams.get('channels') ?? 'chat:lobby').split(',').filter(Boolean)
for (const name of names) {
  seen[name] = []
  at[name] = []
  rt.channel(name).subscribe((m: Message) => {
    at[name]!.push(performance.timeOrigin + performance.now())
    seen[name]!.push(m.offset)
    $('count').textContent = String(++count)
  })
  rt.channel(name).on('discontinuity', (d) => log(`${name}: messages lost (${d.reason})`))
}

declare global {
  interface Window {
    tandemTabs: {
      rt: typeof rt
      tabs: typeof tabs
      seen: typeof seen
      at: typeof at
      publish: (channel: string, data: unknown) => Promise<number>
    }
  }
}
window.tandemTabs = {
  rt,
  tabs,
  seen,
  at,
  publish: async (channel, data) => (await rt.channel(channel).publish('message', data)).offset,
}
