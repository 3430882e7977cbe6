/**
 * The list of the app's keys and slash commands; Esc or Close shuts it. Its own chunk: opened by
 * `?` (ShortcutsKey.tsx, in the first load).
 */
import { useRef } from 'react'
import { SLASH_COMMANDS } from '../chat'
import { Dialog } from '../../ui/Dialog'
import '../../styles/commands.css'

const KEYS: Array<{ group: string; keys: Array<[string[], string]> }> = [
  {
    group: 'Composer',
    keys: [
      [['Enter'], 'Send'],
      [['Shift', 'Enter'], 'New line'],
      [['↑'], 'Edit the last message sent (in the empty box)'],
      [['/'], 'Slash commands (at the start of the message)'],
      [['↑', '↓'], 'Move in the command list'],
      [['Tab'], 'Complete the command'],
      [['Esc'], 'Close the command list'],
    ],
  },
  {
    group: 'Conversation',
    keys: [
      [['Esc'], 'Stop the running turn'],
      [['Tab'], 'Move between messages and their actions'],
      [['R'], 'Open the retake sheet for the focused message’s turn (the model chosen now)'],
      [['Enter'], 'Expand or collapse a focused tool call'],
    ],
  },
  {
    group: 'Anywhere',
    keys: [
      [['?'], 'Show this list'],
      [['Esc'], 'Close a dialog or sheet'],
    ],
  },
]

export function Sheet({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null)
  return (
    <Dialog className="dialog shortcuts-sheet" labelledBy="shortcuts-title" testid="shortcuts-sheet" onClose={onClose} initialFocus={close}>
      <div className="dialog-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      </div>
      <table>
        {KEYS.map(({ group, keys }) => (
          <tbody key={group}>
            <tr>
              <th colSpan={2} scope="colgroup">
                {group}
              </th>
            </tr>
            {keys.map(([combo, what]) => (
              <tr key={`${group}-${what}`}>
                <td>
                  {combo.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' + '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        ))}
        <tbody>
          <tr>
            <th colSpan={2} scope="colgroup">
              Slash commands
            </th>
          </tr>
          {SLASH_COMMANDS.map((c) => (
            <tr key={c.name}>
              <td>
                <kbd>
                  /{c.name}
                  {c.args ? ` ${c.args}` : ''}
                </kbd>
              </td>
              <td>{c.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-buttons">
        <button ref={close} type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  )
}
