import { createDevtoolsRecorder, emulatorActions } from '@tandem/devtools'
import { TandemDevtools } from '@tandem/devtools/react'
import { PersistGate } from '@tandem/react/persist'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.js'
import { registerShellWorker } from './app/service-worker.js'
import { createSession } from './lib/session.js'
import './styles.css'

// Where the devtools' launcher sits, only where there are devtools: a production build has neither.
if (import.meta.env.DEV) void import('./app/devtools.css')

// One client and one realtime connection for the tab, created once (outside React).
const session = createSession()
const { client, realtime, tabs, outbox, persister } = session
// The app shell's service worker (a production build only): a reload with the network off paints the page.
const worker = registerShellWorker(session.log)
// The devtools record from here, before the first render and request: the panel, whose chunk
// loads later, shows the page from its start. `undefined` (and no code) in a production build.
const recorder = createDevtoolsRecorder({ client, realtime, tabs })
// The devtools' Drop connection and Expire token call the Vite plugin's dev controls for this user.
const actions = emulatorActions({ user: session.user })
// The app renders once the saved cache is in (an IndexedDB read; the gate never waits for more):
// its first paint shows the lists this user saw last, not a spinner, even with the network off.
// The devtools sit outside the gate. In a production build <TandemDevtools /> is `null` and its
// code is left out (see @tandem/devtools).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PersistGate persister={persister}>
      <App session={session} worker={worker} />
    </PersistGate>
    <TandemDevtools
      client={client}
      realtime={realtime}
      tabs={tabs}
      outbox={outbox}
      persister={persister}
      recorder={recorder}
      actions={actions}
    />
  </StrictMode>,
)
