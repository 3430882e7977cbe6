/**
 * Settings › Appearance: the theme (follow the system, light, dark) and the text size. Applied at
 * once and kept in this browser or desktop profile (src/ui/appearance-store.ts).
 */
import { THEMES, TEXT_SIZES, useAppearanceStore, type TextSize, type Theme } from '../../ui/appearance-store'

const THEME_LABEL: Record<Theme, string> = { system: 'Same as the system', light: 'Light', dark: 'Dark' }
const SIZE_LABEL: Record<TextSize, string> = { small: 'Small', default: 'Default', large: 'Large', larger: 'Larger' }

export function AppearanceSection() {
  const { theme, textSize, setTheme, setTextSize } = useAppearanceStore()
  return (
    <section className="settings-section" data-testid="settings-appearance">
      <h3>Appearance</h3>
      <fieldset className="settings-choices">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t} className="settings-check">
            <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => setTheme(t)} />
            {THEME_LABEL[t]}
          </label>
        ))}
      </fieldset>
      <label className="settings-row">
        Text size
        <select value={textSize} onChange={(e) => setTextSize(e.target.value as TextSize)}>
          {TEXT_SIZES.map((s) => (
            <option key={s} value={s}>
              {SIZE_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
    </section>
  )
}
