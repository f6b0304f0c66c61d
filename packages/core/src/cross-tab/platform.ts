// The two browser APIs tabs agree through, declared once for Tandem (the saved cache, the durable
// outbox and the realtime tab share): a page's own, or stand-ins (tests, other runtimes).

export interface BroadcastChannelLike {
  postMessage(message: unknown): void
  close(): void
  onmessage: ((event: { data: unknown }) => void) | null
}
export type BroadcastChannelConstructor = new (name: string) => BroadcastChannelLike
export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>
}

const g = globalThis as { navigator?: { locks?: LockManagerLike }; BroadcastChannel?: BroadcastChannelConstructor }

/** The page's Web Locks, when it has them (not Node before 22, not some workers). */
export const platformLocks = (): LockManagerLike | undefined => g.navigator?.locks ?? undefined

/** The page's BroadcastChannel, when it has one. */
export const platformChannel = (): BroadcastChannelConstructor | undefined => g.BroadcastChannel
