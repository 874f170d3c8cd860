import { createChatCompletions, type ChatMessage } from '../../../shared/llm/chat-completions';
import { OutboundRefusal, type OutboundGuard } from '../../../shared/http/outbound-guard';
import type { SponsorAgent } from './sponsor.store';

/** One turn of a conversation so far. */
export interface Turn {
  role: 'participant' | 'agent';
  text: string;
}

/** What asking a sponsor's agent ended in: its reply, or why there is none (never the provider's text). */
export type AgentAnswer = { ok: true; text: string } | { ok: false; reason: string };

/** Longest agent reply kept; a longer one is cut here, as participants read short turns. */
export const MAX_AGENT_CHARS = 4_000;

/**
 * Asks a sponsor's agent for its next turn over the chat-completions wire protocol, with the
 * service's one client (`createChatCompletions`: one request, no SDK retries, a deadline) and the
 * outbound guard as its `fetch`, so the sponsor's address is checked on every request and
 * redirect. A refusal of the guard is reported by its reason (`address`, `port`, ...), which the
 * SDK's own error would hide behind "connection error".
 * @param guard - the outbound guard
 * @param timeoutMs - the call's deadline
 * @param agent - the sponsor's agent (its endpoint must be set)
 * @param turns - the conversation so far, the participant's new turn last
 * @returns the reply, or the failure reason
 */
export async function askSponsorAgent(guard: OutboundGuard, timeoutMs: number, agent: SponsorAgent, turns: readonly Turn[]): Promise<AgentAnswer> {
  if (!agent.endpoint) return { ok: false, reason: 'no_endpoint' };
  let refusal: string | undefined;
  const guardedFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return await guard.fetch(input, { method: init?.method, headers: init?.headers, body: init?.body as string | undefined, signal: init?.signal, contentTypes: ['application/json'] });
    } catch (err) {
      if (err instanceof OutboundRefusal) refusal = err.reason;
      throw err;
    }
  }) as typeof fetch;
  const client = createChatCompletions({ baseUrl: agent.endpoint.baseUrl, apiKey: agent.endpoint.apiKey, model: agent.endpoint.model }, timeoutMs, guardedFetch);
  const messages: ChatMessage[] = [
    ...(agent.instructions.trim() === '' ? [] : [{ role: 'system' as const, content: agent.instructions }]),
    ...turns.map((t) => ({ role: t.role === 'participant' ? ('user' as const) : ('assistant' as const), content: t.text })),
  ];
  const outcome = await client.complete(messages, { maxTokens: 600 });
  if (!outcome.ok) return { ok: false, reason: refusal ?? outcome.reason };
  const text = outcome.content.trim().slice(0, MAX_AGENT_CHARS);
  return text === '' ? { ok: false, reason: 'malformed' } : { ok: true, text };
}
