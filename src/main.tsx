import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { followAppearance } from './ui/appearance-store'
import './styles/base.css'
import './styles/layout.css'
import './styles/chat.css'
import './styles/markdown.css'

// Before the first render, so a dark theme never flashes light.
followAppearance()
const root = document.getElementById('root')!
createRoot(root).render(<App />)
