/**
 * Files dropped anywhere on the chat are attached (text typed so far is untouched); files dropped
 * beside it (sidebar, header) must not make the window open the file instead.
 */
import { useEffect, useState, type DragEvent as ReactDragEvent } from 'react'

export function useFileDrop(addFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false)
  useEffect(() => {
    const guard = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault()
    }
    window.addEventListener('dragover', guard)
    window.addEventListener('drop', guard)
    return () => {
      window.removeEventListener('dragover', guard)
      window.removeEventListener('drop', guard)
    }
  }, [])
  const handlers = {
    onDragOver(e: ReactDragEvent) {
      if (!e.dataTransfer.types.includes('Files')) return
      e.preventDefault()
      e.dataTransfer.dropEffect = 'copy'
      if (!dragging) setDragging(true)
    },
    onDragLeave(e: ReactDragEvent) {
      if (e.currentTarget === e.target || !e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
    },
    onDrop(e: ReactDragEvent) {
      setDragging(false)
      const files = Array.from(e.dataTransfer.files)
      if (files.length === 0) return
      e.preventDefault()
      addFiles(files)
    },
  }
  return { dragging, handlers }
}
