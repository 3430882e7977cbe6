/**
 * Asks before a link from an answer leaves the app, showing the whole URL (a link's text can say
 * anything). Desktop: the system browser, through the host. Browser mode: a new tab with no opener.
 */
import { LinkDialog } from './lazy'
import { useLinkPrompt } from '../../ui/markdown/link-prompt-store'

export function ExternalLinkDialog() {
  const url = useLinkPrompt((s) => s.url)
  const dismiss = useLinkPrompt((s) => s.dismiss)
  if (!url) return null
  return <LinkDialog url={url} onClose={dismiss} />
}
