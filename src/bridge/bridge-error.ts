import type { ErrorCode } from '../../shared/ipc-contract'

/** The renderer-side form of an `{ok:false,error}` envelope. */
export class BridgeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'BridgeError'
  }
}
