export { DEFAULTS } from './defaults.js'
export { TokenError, WebhookClaimError, WebhookError } from './errors.js'
export type { TokenErrorCode, WebhookClaimLostReason, WebhookErrorCode } from './errors.js'
export { mintToken } from './mint-token.js'
export type { MintTokenOptions } from './mint-token.js'
export { verifyToken } from './verify-token.js'
export type { TokenClaims, VerifyTokenOptions } from './verify-token.js'
export type { KeySet } from './key-set.js'
export type { TokenProfile } from './validate.js'
export { decodeToken } from './decode-token.js'
export { scopeAllows } from './scope-allows.js'
export { createTokenHandler } from './token-handler.js'
export type { AuthorizeResult, TokenHandlerOptions } from './token-handler.js'
export { toNodeListener } from './node-listener.js'
export type { NodeLikeIncomingMessage, NodeLikeServerResponse } from './node-listener.js'
export { signWebhook } from './sign-webhook.js'
export { verifyWebhook } from './verify-webhook.js'
export type { VerifyWebhookOptions } from './verify-webhook.js'
export { createWebhookHandler } from './webhook-handler.js'
export type {
  WebhookEvent,
  WebhookEventHandler,
  WebhookEventHandlers,
  WebhookEventMap,
  WebhookHandlerOptions,
} from './webhook-handler.js'
export { createMemoryReplayStore } from './replay-store.js'
export type { MemoryReplayStore, MemoryReplayStoreOptions, WebhookReplayStore } from './replay-store.js'
