// The two browser APIs the sharing runs on: a page's, or stand-ins (tests, other runtimes).

export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>
}

export interface BroadcastChannelLike {
  postMessage(message: unknown): void
  close(): void
  onmessage: ((event: { data: unknown }) => void) | null
}

export type BroadcastChannelConstructor = new (name: string) => BroadcastChannelLike
