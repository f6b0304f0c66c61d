import type { NextConfig } from 'next'

const config: NextConfig = {
  // The SDK arrives through workspace symlinks; Next bundles it for the server like the app's own code.
  transpilePackages: ['@tandem/next'],
  // `next dev` serves its dev resources (the HMR socket) to localhost only: a page opened at
  // 127.0.0.1, the address the emulator and the playground print, would never hydrate.
  allowedDevOrigins: ['127.0.0.1'],
}

export default config
