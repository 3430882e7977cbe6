import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import './styles/base.css'
import './styles/layout.css'
import './styles/chat.css'
import './styles/markdown.css'

const root = document.getElementById('root')!
createRoot(root).render(<App />)
