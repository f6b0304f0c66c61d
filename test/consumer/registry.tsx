// The "done when", as a user writes it under strict + noUncheckedIndexedAccess, against
// the built packages: typed items from the registry, and the typo and the wrong filter refused.
import type { TandemClient } from '@tandem/core'
import { useResources } from '@tandem/react'

export function Inbox() {
  const { items } = useResources('support/conversations', { status: 'active' })
  const subject: string = items[0]!.subject
  // @ts-expect-error: a typo in the path does not compile
  useResources('support/conversatoins')
  // @ts-expect-error: a filter value the service refuses does not compile
  useResources('support/conversations', { status: 'bogus' })
  return <p>{subject}</p>
}

export async function firstSubject(client: TandemClient): Promise<string> {
  const { data } = await client.support.conversations.list()
  const subject: string = data[0]!.subject
  return subject
}
