/** The agent's question (its `question` tool): the turn waits for the answer, asked above the composer. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { errorMessage, unwrap } from '../../../shared/unwrap'
import { questionAnswers, type QuestionRequest } from './permissions'

export function QuestionPrompt({ sessionID }: { sessionID: string | undefined }) {
  const scope = useScope()
  const qc = useQueryClient()
  const questions = useQuery({
    queryKey: queryKeys.questions(scope),
    staleTime: Infinity,
    queryFn: async (): Promise<QuestionRequest[]> => unwrap('question.list', await clientFor(scope.directory).question.list()) as unknown as QuestionRequest[],
  })
  const [chosen, setChosen] = useState<Record<number, string[]>>({})
  const [custom, setCustom] = useState<Record<number, string>>({})
  const done = (id: string) => {
    setChosen({})
    setCustom({})
    qc.setQueryData<QuestionRequest[]>(queryKeys.questions(scope), (list) => list?.filter((q) => q.id !== id))
  }
  const answer = useMutation({
    mutationFn: async (v: { id: string; answers: string[][] }) =>
      unwrap('question.reply', await clientFor(scope.directory).question.reply({ requestID: v.id, answers: v.answers })),
    onSuccess: (_r, v) => done(v.id),
  })
  const dismiss = useMutation({
    mutationFn: async (id: string) => unwrap('question.reject', await clientFor(scope.directory).question.reject({ requestID: id })),
    onSuccess: (_r, id) => done(id),
  })
  const q = (questions.data ?? []).find((x) => x.sessionID === sessionID)
  if (!q) return null
  const answers = questionAnswers(q, chosen, custom)
  const complete = answers.every((a) => a.length > 0)
  const toggle = (i: number, label: string, multiple: boolean) =>
    setChosen((c) => {
      const cur = c[i] ?? []
      return { ...c, [i]: multiple ? (cur.includes(label) ? cur.filter((l) => l !== label) : [...cur, label]) : [label] }
    })
  return (
    <form
      className="permission-prompt question-prompt"
      aria-label="The agent asks you"
      data-testid="question-prompt"
      onSubmit={(e) => {
        e.preventDefault()
        if (complete) answer.mutate({ id: q.id, answers })
      }}
    >
      {q.questions.map((item, i) => (
        <fieldset key={i} className="question">
          <legend>
            <strong>{item.header}</strong> — {item.question}
          </legend>
          {item.options.map((o) => (
            <label key={o.label} className="question-option">
              <input
                type={item.multiple ? 'checkbox' : 'radio'}
                name={`q-${q.id}-${i}`}
                checked={(chosen[i] ?? []).includes(o.label)}
                onChange={() => toggle(i, o.label, !!item.multiple)}
              />
              <span>{o.label}</span>
              {o.description && <span className="muted"> — {o.description}</span>}
            </label>
          ))}
          {item.custom !== false && (
            <input type="text" placeholder="Or answer in your own words" value={custom[i] ?? ''} onChange={(e) => setCustom((c) => ({ ...c, [i]: e.target.value }))} />
          )}
        </fieldset>
      ))}
      <div className="permission-buttons">
        <button type="submit" className="button button-primary small" data-testid="question-answer" disabled={!complete || answer.isPending}>
          Answer
        </button>
        <button type="button" className="button button-secondary small" data-testid="question-dismiss" disabled={dismiss.isPending} onClick={() => dismiss.mutate(q.id)}>
          Dismiss
        </button>
      </div>
      {(answer.error || dismiss.error) && <div className="inline-error">{errorMessage(answer.error ?? dismiss.error)}</div>}
    </form>
  )
}
