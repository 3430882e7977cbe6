// Stopping a worker thread of the engine (hash, stat, diff, change-journal workers).
import type { Worker } from 'node:worker_threads'

/**
 * Resolves when `w` has stopped. The process is held open until then: the engine's workers are
 * unref'd, and one asked to stop while it was still starting (a restore's deletes taken back
 * before the hash worker came up, then the store closed) let a process with nothing else to do
 * exit with its close still pending — the model test's scenarios ended there, silently.
 */
export async function stopWorker(w: Worker): Promise<void> {
  const keep = setInterval(() => {}, 1 << 30)
  try {
    await w.terminate()
  } finally {
    clearInterval(keep)
  }
}
