/** True when the host refused a prompt because it could not record a checkpoint first (409 CheckpointFailed). */
export function isCheckpointFailure(err: unknown): boolean {
  const e = err as { status?: number; body?: { name?: string } } | null
  return e?.status === 409 && e.body?.name === 'CheckpointFailed'
}
