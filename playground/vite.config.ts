import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { appShell } from './app-shell.js'
import { tandemEmulator } from './tandem-plugin.js'

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url))

export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    // Run the SDK from source: no build step between an edit and the page.
    conditions: ['@tandem/source', 'module', 'browser', 'development|production'],
    // One React however the workspace hoists it (the hooks package has its own devDependency).
    dedupe: ['react', 'react-dom'],
  },
  // `PORT=5501 npm run dev` (or `npm run dev -- --port 5501`, which reaches vite's own flag) picks another port.
  server: { host: '127.0.0.1', port: Number(process.env.PORT) || 5173 },
  // Four pages: the React app, the plain-script one, one connection for all tabs, and the customer's.
  build: {
    rolldownOptions: {
      input: {
        main: page('index.html'),
        vanilla: page('vanilla.html'),
        tabs: page('tabs.html'),
        customer: page('customer.html'),
      },
    },
  },
  plugins: [react(), tandemEmulator(), appShell(mode)],
}))
