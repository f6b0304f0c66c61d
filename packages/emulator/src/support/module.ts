// Support service: mailboxes, conversations with threads, docs (issue 3).
import type { ModuleContext, ServiceModule } from '../service-module.js'

export interface SupportOptions {}

export function createSupportModule(_ctx: ModuleContext, _options: SupportOptions = {}): ServiceModule {
  return { routes: [], reset() {} }
}
