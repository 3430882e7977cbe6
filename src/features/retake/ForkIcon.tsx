/** The fork action's icon: only the chat's chunk needs it, so it is not in the first load with the others (ui/icons.tsx). */
import { Svg } from '../../ui/icons'

/** A branch leaving the line: "fork from here". */
export const ForkIcon = () => (
  <Svg>
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="4.5" cy="12.5" r="1.5" />
    <circle cx="11.5" cy="5.5" r="1.5" />
    <path d="M4.5 5v6" />
    <path d="M11.5 7c0 3-7 2-7 4" />
  </Svg>
)
