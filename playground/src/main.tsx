import { PersistGate } from '@tandem/react/persist'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.js'
import { createSession } from './lib/session.js'
import './styles.css'

// One client and one realtime connection for the tab, created once (outside React).
const session = createSession()
// The app renders once the saved cache is in (an IndexedDB read; the gate never waits for more):
// its first paint shows the lists this user saw last, not a spinner, even with the network off.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PersistGate persister={session.persister}>
      <App session={session} />
    </PersistGate>
  </StrictMode>,
)
