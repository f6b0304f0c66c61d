import { TandemProvider } from '@tandem/react'
import { usePersistStatus } from '@tandem/react/persist'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { ChatPanel } from '../chat/ChatPanel.js'
import { ConnectionBadge } from '../chat/ConnectionBadge.js'
import { SessionContext } from '../lib/session-context.js'
import type { Session } from '../lib/session.js'
import { MapsPanel } from '../maps/MapsPanel.js'
import { SupportPanel } from '../support/SupportPanel.js'
import { EventLogPanel } from './EventLogPanel.js'
import { HeaderLinks } from './HeaderLinks.js'
import { LogOutButton, OutboxStatus, StorageNotice } from './PersistStatus.js'
import { SignedOut } from './SignedOut.js'
import type { ShellWorker } from './service-worker.js'
import { UpdateNotice } from './UpdateNotice.js'
import { UserNotice } from './UserNotice.js'

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

/** The WAI-ARIA tabs pattern's keys: arrows move (and wrap), Home and End jump. */
const KEY_STEP: Record<string, (i: number) => number> = {
  ArrowRight: (i) => (i + 1) % TABS.length,
  ArrowLeft: (i) => (i - 1 + TABS.length) % TABS.length,
  Home: () => 0,
  End: () => TABS.length - 1,
}

export function App({ session, worker }: { session: Session; worker?: ShellWorker }) {
  const [tab, setTab] = useState<Tab>(fromHash)
  const tabRefs = useRef<Partial<Record<Tab, HTMLAnchorElement | null>>>({})
  useEffect(() => {
    const on = () => setTab(fromHash())
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])
  // The user logged out in another tab: this one's session is over too (its cache and outbox ended
  // themselves, session.ts closed the connection), so the app gives way to a page that says so.
  const { loggedOut } = usePersistStatus(session.persister)

  // One Tab stop for the tab list (the selected tab); arrows move between tabs and select them.
  const onTabKey = (e: KeyboardEvent) => {
    const step = KEY_STEP[e.key]
    if (!step || e.altKey || e.ctrlKey || e.metaKey) return // Alt+Left is the browser's Back
    e.preventDefault()
    const next = TABS[step(TABS.findIndex((t) => t.id === tab))]!.id
    location.hash = next
    setTab(next)
    tabRefs.current[next]?.focus()
  }

  if (loggedOut === 'another-tab') return <SignedOut user={session.user} />
  return (
    <SessionContext.Provider value={session}>
      <TandemProvider client={session.client} realtime={session.realtime}>
        <div className="app">
          <header className="top">
            {/* The hash names the tab: the link moves focus itself instead of navigating. */}
            <a
              className="skip-link"
              href={`#panel-${tab}`}
              onClick={(e) => {
                e.preventDefault()
                document.getElementById(`panel-${tab}`)?.focus()
              }}
            >
              Skip to the {TABS.find((t) => t.id === tab)?.label} panel
            </a>
            <h1>
              Tandem <span className="muted">playground</span>
            </h1>
            <div className="tabs" role="tablist" aria-label="Panels" onKeyDown={onTabKey}>
              {TABS.map((t) => (
                <a
                  key={t.id}
                  ref={(el) => void (tabRefs.current[t.id] = el)}
                  id={`tab-${t.id}`}
                  href={`#${t.id}`}
                  role="tab"
                  aria-selected={tab === t.id}
                  aria-controls={`panel-${t.id}`}
                  tabIndex={tab === t.id ? 0 : -1}
                  className="tab"
                >
                  {t.label}
                </a>
              ))}
            </div>
            <span className="grow" />
            <span
              className="muted small signed-in"
              title={`${session.user}: this tab's user (the token endpoint makes it the token's subject)`}
            >
              <span className="signed-in-label">signed in as </span>
              <strong data-testid="user">{session.user}</strong>
            </span>
            <ConnectionBadge />
            <OutboxStatus />
            <HeaderLinks user={session.user} />
            <LogOutButton />
          </header>
          <main className="content">
            <UserNotice rejected={session.rejectedUser} user={session.user} />
            <StorageNotice />
            {worker && <UpdateNotice worker={worker} />}
            {/* Panels stay mounted (hidden), so the chat keeps its history and the lists their pages. */}
            {TABS.map((t) => (
              <div
                key={t.id}
                id={`panel-${t.id}`}
                role="tabpanel"
                aria-labelledby={`tab-${t.id}`}
                tabIndex={-1}
                hidden={tab !== t.id}
              >
                {t.id === 'maps' ? (
                  <MapsPanel />
                ) : t.id === 'support' ? (
                  <SupportPanel />
                ) : (
                  <ChatPanel active={tab === t.id} />
                )}
              </div>
            ))}
          </main>
          <EventLogPanel />
        </div>
      </TandemProvider>
    </SessionContext.Provider>
  )
}
