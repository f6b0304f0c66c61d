import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.js'
import { createSession } from './lib/session.js'
import './styles.css'

// One client and one realtime connection for the tab, created once (outside React).
const session = createSession()
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App session={session} />
  </StrictMode>,
)
