import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/** An OpenAI-compatible chat-completions provider, as the operator configures it. */
export interface ChatProvider {
  /** Base URL of the provider's API (the SDK appends `/chat/completions`). */
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why a completion gave no usable answer. Never carries the provider's text or the prompt. */
export type ChatFailure = 'timeout' | 'rate_limited' | 'provider_error' | 'malformed' | 'unreachable' | 'aborted';

/** What one completion call ends in: the answer's content, or why there is none. */
export type ChatOutcome = { ok: true; content: string } | { ok: false; reason: ChatFailure; status?: number };

/** A chat-completions client bound to one provider and model. */
export interface ChatCompletions {
  /**
   * Asks for one completion: exactly one HTTP request (no SDK retries), no tools, bounded in time.
   * Failures are values, never throws, so a caller cannot mistake one for a server fault.
   * @param messages - the prompt
   * @param options - `json` asks for a JSON object answer; `signal` aborts the request
   */
  complete(messages: readonly ChatMessage[], options?: { json?: boolean; signal?: AbortSignal; maxTokens?: number }): Promise<ChatOutcome>;
}

/**
 * Creates the client of an operator-configured provider with the official `openai` SDK, with an
 * explicit timeout and `maxRetries: 0` (the SDK retries twice by default; where the rule is one
 * call, a retry would be a second evaluation). The operator's own provider URL comes from
 * configuration and uses the SDK's fetch; a provider whose address a caller or a sponsor gave must
 * pass the outbound guard's `fetch` (`shared/http/outbound-guard.ts`), so every request and
 * redirect is checked there.
 * @param provider - base URL, key, model
 * @param timeoutMs - the whole call's deadline
 * @param fetchImpl - the fetch the SDK uses (the outbound guard's for a given address)
 * @returns the client
 */
export function createChatCompletions(provider: ChatProvider, timeoutMs: number, fetchImpl?: typeof fetch): ChatCompletions {
  const client = new OpenAI({
    baseURL: provider.baseUrl,
    apiKey: provider.apiKey,
    timeout: timeoutMs,
    maxRetries: 0,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return {
    async complete(messages, options = {}) {
      try {
        const completion = await client.chat.completions.create(
          {
            model: provider.model,
            messages: messages.map((m) => ({ role: m.role, content: m.content })),
            temperature: 0,
            ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
            ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal: options.signal, maxRetries: 0, timeout: timeoutMs },
        );
        const content = completion?.choices?.[0]?.message?.content;
        return typeof content === 'string' ? { ok: true, content } : { ok: false, reason: 'malformed' };
      } catch (err) {
        return { ok: false, ...failureOf(err) };
      }
    },
  };
}

// The SDK's error classes, reduced to what a caller decides on.
function failureOf(err: unknown): { reason: ChatFailure; status?: number } {
  if (err instanceof APIConnectionTimeoutError) return { reason: 'timeout' };
  if (err instanceof APIUserAbortError) return { reason: 'aborted' };
  if (err instanceof APIError) {
    if (err.status === 429) return { reason: 'rate_limited', status: 429 };
    if (typeof err.status === 'number') return { reason: 'provider_error', status: err.status };
    return { reason: 'unreachable' };
  }
  // A 200 whose body is not JSON makes the SDK throw a SyntaxError.
  if (err instanceof SyntaxError) return { reason: 'malformed' };
  return { reason: 'unreachable' };
}
