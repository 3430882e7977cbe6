/** The app root: one QueryClient, then the shell that boots against the host. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { AppShell } from './AppShell'
import { ExternalLinkDialog } from '../features/chat/ExternalLinkDialog'

export function App() {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { refetchOnWindowFocus: false, retry: 1 },
          mutations: { retry: 0 },
        },
      }),
  )
  return (
    <QueryClientProvider client={client}>
      <AppShell />
      <ExternalLinkDialog />
    </QueryClientProvider>
  )
}
