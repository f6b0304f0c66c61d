import type { PluginOption } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

/** `TANDEM_SW=1` asks for the service worker where it is off by default: the dev server, a development build. */
export const SW_ENV = 'TANDEM_SW'

/**
 * The app-shell service worker (src/sw/sw.ts) through vite-plugin-pwa, in injectManifest mode so
 * the same worker can take push handlers later (issue 47). A production build (`npm run build`)
 * has it; `npm run dev` and the browser tests' development build do not, unless `TANDEM_SW=1`:
 * a worker there would serve yesterday's page to a dev server that changes it on every save, and
 * would sit between the tests' pages and the network they cut. Without it, `virtual:pwa-register`
 * is an empty function and nothing of Workbox is bundled.
 */
export function appShell(mode: string, env: NodeJS.ProcessEnv = process.env): PluginOption {
  const asked = env[SW_ENV] === '1'
  return VitePWA({
    disable: mode !== 'production' && !asked,
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    // src/app/app-shell.ts registers it through `virtual:pwa-register`, and asks before an update.
    injectRegister: false,
    registerType: 'prompt',
    // An app shell for offline reloads, not an installable app: no web manifest, no icons.
    manifest: false,
    injectManifest: {
      // Every page, script and style of the build; nothing else is served from the worker.
      globPatterns: ['**/*.{html,js,css}'],
      // The worker is small and rarely read: its Workbox logs stay out of a production build.
      minify: mode === 'production',
    },
    devOptions: { enabled: asked, type: 'module', navigateFallback: 'index.html' },
  })
}
