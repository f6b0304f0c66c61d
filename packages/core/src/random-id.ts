// A unique id (idempotency keys, sessions): a UUID where the platform has one.

export function randomId(): string {
  const c = globalThis.crypto
  if (c && typeof c.randomUUID === 'function') return c.randomUUID()
  // Insecure contexts (plain http on a LAN IP) have no randomUUID; uniqueness is all we need here.
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`
}
