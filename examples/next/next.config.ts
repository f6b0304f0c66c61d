import type { NextConfig } from 'next'

const config: NextConfig = {
  // The SDK arrives through workspace symlinks; Next bundles it for the server like the app's own code.
  transpilePackages: ['@tandem/next'],
}

export default config
