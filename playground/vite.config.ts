import { defineConfig } from 'vite'
import { tandemEmulator } from './tandem-plugin.js'

export default defineConfig({
  // Run the SDK from source: no build step between an edit and the page.
  resolve: { conditions: ['@tandem/source', 'module', 'browser', 'development|production'] },
  server: { host: '127.0.0.1', port: 5173 },
  plugins: [tandemEmulator()],
})
