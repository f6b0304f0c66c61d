// Files on support conversations (docs/uploads.md): the upload records, the tus endpoint, signed
// downloads, and the controls tests read (`emulator.uploads`). The support module mounts the
// routes and hands the registry to the writes that attach files.
import type { Route } from '../router.js'
import type { RouteHandler } from '../resource-routes.js'
import { createUploadRegistry, type UploadRegistry } from './registry.js'
import { uploadRoutes } from './routes.js'
import { createSigner } from './signing.js'
import { createTusEndpoint } from './tus-endpoint.js'

/** One upload as the service holds it (`emulator.uploads.get`). */
export interface UploadInfo {
  id: string
  /** The token subject that uploaded it (a customer id, an agent's subject, `key:<keyId>`). */
  owner: string
  name: string
  type: string
  size: number
  /** Bytes stored now. */
  offset: number
  /** Every byte arrived and matched its declared type. */
  complete: boolean
  /** The thread (message) that holds it, or null. */
  attachedTo: string | null
  /** Times the service read the whole file to check its type (1 once complete). */
  checks: number
}

export interface UploadControls {
  get(id: string): UploadInfo | undefined
  /** What the service stores for it (the bytes so far); undefined for an unknown or deleted upload. */
  bytes(id: string): Promise<Buffer | undefined>
  /** PATCH body bytes the service has read for it, resends after a resume included (0 when unknown). */
  received(id: string): number
}

export interface Uploads {
  registry: UploadRegistry
  routes: Route<RouteHandler>[]
  controls: UploadControls
  /** Forgets every upload and deletes its bytes (reset). */
  clear(): void
  /** As clear, for good (close): no later request stores anything. */
  close(): void
}

/** `publicUrl`: the emulator's own origin, for links that go out in frames and webhooks. */
export function createUploads(publicUrl: () => string = () => 'http://127.0.0.1'): Uploads {
  const signer = createSigner()
  const registry = createUploadRegistry(signer, publicUrl)
  const tus = createTusEndpoint(registry)
  return {
    registry,
    routes: uploadRoutes(registry, tus, signer),
    controls: {
      get(id) {
        const r = registry.get(id)
        if (!r) return undefined
        const { name, type, size, complete, attachedTo, checks } = r
        return { id, owner: r.subject, name, type, size, offset: tus.offset(id), complete, attachedTo, checks }
      },
      bytes: (id) => (registry.get(id) ? tus.bytes(id) : Promise.resolve(undefined)),
      received: (id) => registry.get(id)?.received ?? 0,
    },
    clear() {
      registry.reset()
      tus.clear()
    },
    close() {
      registry.reset()
      tus.close()
    },
  }
}
