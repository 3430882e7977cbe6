/**
 * How Retake looks on this machine: the theme (the system's, or light or dark) and the text size.
 * UI state, kept in this browser's storage and applied as attributes on <html> that base.css reads:
 * every colour token is light-dark(…), so `color-scheme` alone switches the theme.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]
export const TEXT_SIZES = ['small', 'default', 'large', 'larger'] as const
export type TextSize = (typeof TEXT_SIZES)[number]

interface AppearanceState {
  theme: Theme
  textSize: TextSize
  setTheme(theme: Theme): void
  setTextSize(size: TextSize): void
}

export const useAppearanceStore = create<AppearanceState>()(
  persist(
    (set) => ({
      theme: 'system',
      textSize: 'default',
      setTheme: (theme) => set({ theme }),
      setTextSize: (textSize) => set({ textSize }),
    }),
    {
      name: 'retake.appearance',
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ theme: s.theme, textSize: s.textSize }),
      // A stored value this version does not know (edited by hand, or from a later version) falls back.
      merge: (stored, current) => {
        const s = (stored ?? {}) as Partial<AppearanceState>
        return {
          ...current,
          theme: THEMES.includes(s.theme as Theme) ? (s.theme as Theme) : current.theme,
          textSize: TEXT_SIZES.includes(s.textSize as TextSize) ? (s.textSize as TextSize) : current.textSize,
        }
      },
    },
  ),
)

/** Puts the appearance on <html>: `system` and `default` are the absence of an attribute. */
export function applyAppearance(root: HTMLElement, { theme, textSize }: Pick<AppearanceState, 'theme' | 'textSize'>): void {
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  if (textSize === 'default') delete root.dataset.textSize
  else root.dataset.textSize = textSize
}

/** Applies the stored appearance now (before the first paint) and whenever it changes. */
export function followAppearance(root: HTMLElement = document.documentElement): () => void {
  applyAppearance(root, useAppearanceStore.getState())
  return useAppearanceStore.subscribe((s) => applyAppearance(root, s))
}
