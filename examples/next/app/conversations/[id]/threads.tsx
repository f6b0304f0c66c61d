import { TandemHydrate } from '@tandem/next'
import { prefetch } from '@tandem/next/server'
import { threadsQuery } from '../../../lib/queries'
import { serverClient } from '../../../lib/tandem'
import { ThreadList } from './thread-list'

/** An async server component: its HTML and its data stream in when the threads are fetched. */
export async function Threads({ id }: { id: string }) {
  const state = await prefetch(serverClient(), threadsQuery(id))
  return (
    <TandemHydrate state={state}>
      <ThreadList id={id} />
    </TandemHydrate>
  )
}
