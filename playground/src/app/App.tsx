import { TandemProvider } from '@tandem/react'
import { useEffect, useState } from 'react'
import { ChatPanel } from '../chat/ChatPanel.js'
import { ConnectionBadge } from '../chat/ConnectionBadge.js'
import { SessionContext } from '../lib/session-context.js'
import type { Session } from '../lib/session.js'
import { MapsPanel } from '../maps/MapsPanel.js'
import { SupportPanel } from '../support/SupportPanel.js'
import { EventLogPanel } from './EventLogPanel.js'

const TABS = [
  { id: 'maps', label: 'Maps' },
  { id: 'support', label: 'Support inbox' },
  { id: 'chat', label: 'Chat' },
] as const
type Tab = (typeof TABS)[number]['id']

const fromHash = (): Tab => {
  const h = location.hash.slice(1)
  return TABS.some((t) => t.id === h) ? (h as Tab) : 'maps'
}

export function App({ session }: { session: Session }) {
  const [tab, setTab] = useState<Tab>(fromHash)
  useEffect(() => {
    const on = () => setTab(fromHash())
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])

  return (
    <SessionContext.Provider value={session}>
      <TandemProvider client={session.client} realtime={session.realtime}>
        <div className="app">
          <header className="top">
            <h1>
              Tandem <span className="muted">playground</span>
            </h1>
            <nav className="tabs" role="tablist" aria-label="Panels">
              {TABS.map((t) => (
                <a key={t.id} href={`#${t.id}`} role="tab" aria-selected={tab === t.id} className="tab">
                  {t.label}
                </a>
              ))}
            </nav>
            <span className="grow" />
            <span className="muted small" title="This tab's user: the token endpoint makes it the token's subject">
              signed in as <strong data-testid="user">{session.user}</strong>
            </span>
            <ConnectionBadge />
            <a className="small" href={`/vanilla.html?user=${encodeURIComponent(session.user)}`}>
              Vanilla page
            </a>
            <a
              className="small"
              href="/openapi.json"
              title="The services' REST contract (OpenAPI 3.1), served by the emulator"
            >
              API contract
            </a>
            <a className="small" href="/asyncapi.json" title="The realtime socket's contract (AsyncAPI 3)">
              Socket contract
            </a>
          </header>
          <main className="content" role="tabpanel" aria-label={TABS.find((t) => t.id === tab)?.label}>
            {/* Panels stay mounted (hidden), so the chat keeps its history and the lists their pages. */}
            <div hidden={tab !== 'maps'}>
              <MapsPanel />
            </div>
            <div hidden={tab !== 'support'}>
              <SupportPanel />
            </div>
            <div hidden={tab !== 'chat'}>
              <ChatPanel />
            </div>
          </main>
          <EventLogPanel />
        </div>
      </TandemProvider>
    </SessionContext.Provider>
  )
}
