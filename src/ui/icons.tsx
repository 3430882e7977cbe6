/**
 * Icons drawn as inline SVG: font glyphs (✎, 🗑) render as empty boxes where the system lacks an
 * emoji font, as on many Linux desktops. Each takes currentColor and is hidden from screen readers:
 * the button around it carries the label.
 */
import type { ReactElement } from 'react'

export function Svg({ children }: { children: ReactElement | ReactElement[] }) {
  return (
    <svg
      className="icon"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  )
}

export const PencilIcon = () => (
  <Svg>
    <path d="M11 2.5l2.5 2.5L5.5 13H3v-2.5z" />
    <path d="M9.5 4l2.5 2.5" />
  </Svg>
)

export const TrashIcon = () => (
  <Svg>
    <path d="M2.5 4.5h11" />
    <path d="M6 4.5V3h4v1.5" />
    <path d="M4 4.5l.7 9h6.6l.7-9" />
  </Svg>
)

export const SearchIcon = () => (
  <Svg>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.5 10.5L14 14" />
  </Svg>
)

export const ArchiveIcon = () => (
  <Svg>
    <path d="M2 3.5h12v3H2z" />
    <path d="M3 6.5v6.5h10V6.5" />
    <path d="M6.5 9h3" />
  </Svg>
)
