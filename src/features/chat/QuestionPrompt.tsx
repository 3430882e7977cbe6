/** The agent's question (its `question` tool): the turn waits for the answer, asked above the composer. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { errorMessage, unwrap } from '../../../shared/unwrap'
import { questionAnswers, type QuestionRequest } from './permissions'

type Scope = ReturnType<typeof useScope>

function useQuestions(scope: Scope) {
  return useQuery({
    queryKey: queryKeys.questions(scope),
    staleTime: Infinity,
    queryFn: async (): Promise<QuestionRequest[]> => unwrap('question.list', await clientFor(scope.directory).question.list()) as unknown as QuestionRequest[],
  })
}

/** The choices made so far, and answering or dismissing (either clears them and drops the question from the list). */
function useQuestionReply(scope: Scope) {
  const qc = useQueryClient()
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
  return { chosen, setChosen, custom, setCustom, answer, dismiss }
}

/** The choices after clicking `label` on question i: a checkbox toggles it, a radio button replaces the choice. */
function toggledChoice(c: Record<number, string[]>, i: number, label: string, multiple: boolean): Record<number, string[]> {
  const cur = c[i] ?? []
  return { ...c, [i]: multiple ? (cur.includes(label) ? cur.filter((l) => l !== label) : [...cur, label]) : [label] }
}

type QuestionItem = QuestionRequest['questions'][number]

export function QuestionPrompt({ sessionID }: { sessionID: string | undefined }) {
  const scope = useScope()
  const questions = useQuestions(scope)
  const { chosen, setChosen, custom, setCustom, answer, dismiss } = useQuestionReply(scope)
  const q = (questions.data ?? []).find((x) => x.sessionID === sessionID)
  if (!q) return null
  const answers = questionAnswers(q, chosen, custom)
  const complete = answers.every((a) => a.length > 0)
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
        <QuestionFields
          key={i}
          item={item}
          name={`q-${q.id}-${i}`}
          chosen={chosen[i] ?? []}
          onToggle={(label) => setChosen((c) => toggledChoice(c, i, label, !!item.multiple))}
          custom={custom[i] ?? ''}
          onCustom={(text) => setCustom((c) => ({ ...c, [i]: text }))}
        />
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

function QuestionFields(p: { item: QuestionItem; name: string; chosen: string[]; onToggle(label: string): void; custom: string; onCustom(text: string): void }) {
  const { item } = p
  return (
    <fieldset className="question">
      <legend>
        <strong>{item.header}</strong> — {item.question}
      </legend>
      {item.options.map((o) => (
        <label key={o.label} className="question-option">
          <input type={item.multiple ? 'checkbox' : 'radio'} name={p.name} checked={p.chosen.includes(o.label)} onChange={() => p.onToggle(o.label)} />
          <span>{o.label}</span>
          {o.description && <span className="muted"> — {o.description}</span>}
        </label>
      ))}
      {item.custom !== false && <input type="text" placeholder="Or answer in your own words" value={p.custom} onChange={(e) => p.onCustom(e.target.value)} />}
    </fieldset>
  )
}
