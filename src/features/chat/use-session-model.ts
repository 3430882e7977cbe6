/**
 * The model and agent a session's next prompt goes with: the user's choice for this session, else
 * the session's last one, else the server's default — with the provider list they are chosen from.
 */
import { useCallback, useMemo } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import { useAgents, useConfigProviders, useServerConfig } from '../../api/queries'
import type { Session } from '../../api/types'
import { modelOptions, resolveModel, serverDefaultModel, choiceKey, useModelStore } from '../models'

export function useSessionModel(directory: string, sessionID: string | undefined, session: Session | undefined) {
  const providers = useConfigProviders()
  const config = useServerConfig()
  const agents = useAgents()
  const ckey = choiceKey(directory, sessionID)
  const chosenModel = useModelStore((s) => s.models[ckey])
  const chosenAgent = useModelStore((s) => s.agents[ckey])
  const { setModel, setAgent } = useModelStore.getState()
  const serverDefault = serverDefaultModel(config.data?.model, providers.data?.providers ?? [], providers.data?.default ?? {})
  const resolved = resolveModel(chosenModel, session, serverDefault)
  const agent = chosenAgent ?? session?.agent ?? config.data?.default_agent ?? 'build'
  const options = useMemo(() => modelOptions(providers.data?.providers ?? []), [providers.data])
  const chooseModel = useCallback((ref: ModelRef) => setModel(ckey, ref), [setModel, ckey])
  const chooseAgent = useCallback((name: string) => setAgent(ckey, name), [setAgent, ckey])
  return { providers, agents, options, resolved, agent, chosenAgent, chooseModel, chooseAgent }
}
