import { TandemNextProvider } from '@tandem/next'
import Link from 'next/link'
import type { ReactNode } from 'react'
import { baseUrl } from '../lib/tandem'
import { ConnectionBadge } from './connection-badge'
import './styles.css'

export const metadata = { title: 'Tandem on Next.js' }

// Every page reads the services at request time (server prefetch), none is prerendered at build.
export const dynamic = 'force-dynamic'

export default function RootLayout({ children }: { children: ReactNode }) {
  // Serializable options only: the provider is a client component, made once per page in the browser.
  const clientOptions = { baseUrl: baseUrl(), auth: { url: '/api/tandem-token' } }
  return (
    <html lang="en">
      <body>
        <TandemNextProvider clientOptions={clientOptions} realtimeOptions={{}}>
          <nav aria-label="Example">
            <Link href="/">Inbox</Link>
            <Link href="/maps">Maps</Link>
            <ConnectionBadge />
          </nav>
          <main>{children}</main>
        </TandemNextProvider>
      </body>
    </html>
  )
}
