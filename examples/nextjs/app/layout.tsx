import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import './style.css'

export const metadata: Metadata = { title: 'Gatehouse on Next.js' }

export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <main>{children}</main>
      </body>
    </html>
  )
}
