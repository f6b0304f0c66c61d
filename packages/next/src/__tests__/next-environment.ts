// As a Next.js server sets up its process before it loads anything (setup.ts imports this first):
// Next.js makes its request stores, which `connection()` reads, on this global, and inert
// stand-ins for good without it.
import { AsyncLocalStorage } from 'node:async_hooks'

Object.assign(globalThis, { AsyncLocalStorage: globalThis.AsyncLocalStorage ?? AsyncLocalStorage })
