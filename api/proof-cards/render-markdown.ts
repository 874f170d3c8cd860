import type { ProofCard } from './build-cards';

const value = (v: number | string | null) => (v === null ? 'n/a' : String(v));

/**
 * A card as Markdown (`?format=markdown`): the same members as the JSON, for a README, an issue or
 * a chat. Every value is the service's own text or a number; nothing a caller submitted.
 * @param card - the card
 * @returns the Markdown document
 */
export function renderCardMarkdown(card: ProofCard): string {
  const e = card.evidence;
  const w = card.freshness.metrics_window;
  const rows: Array<[string, number | string | null]> = [
    ['payment_challenges', e.payment_challenges],
    ['payment_retries', e.payment_retries],
    ['payment_verifications', e.payment_verifications],
    ['payment_settlements', e.payment_settlements],
    ['verified_settlements', e.verified_settlements],
    ['successful_invocations', e.successful_invocations],
    ['deliveries', e.deliveries],
    ['second_paid_calls', e.second_paid_calls],
    ['repeat_buyers', e.repeat_buyers],
    ['test_or_canary_invocations', e.test_or_canary_invocations],
    ['latency_ms p50', e.latency_ms.p50],
    ['latency_ms p95', e.latency_ms.p95],
    ['freshest_success_at', e.freshest_success_at],
    ['attribution.proof_discoveries', e.attribution.proof_discoveries],
    ['attribution.proof_to_successful_call', e.attribution.proof_to_successful_call],
    ['attribution.proof_to_second_paid_call', e.attribution.proof_to_second_paid_call],
  ];
  const lines = [
    `# Proof card: ${card.method} ${card.endpoint}`,
    '',
    card.task,
    '',
    `- **id**: \`${card.id}\``,
    `- **price**: ${card.current_price.base_usdc_micro} USDC units (6 decimals) / ${card.current_price.base_lamports} lamports for \`${card.current_price.priced_endpoint}\`, quoted at ${card.current_price.quoted_at}`,
    `- **price note**: ${card.current_price.note}`,
    `- **card generated at**: ${card.freshness.card_generated_at}`,
    `- **metrics window**: the last ${w.days} UTC day(s), from ${w.from} to ${w.to}`,
    '',
    '## Evidence',
    '',
    '| counter | value |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${value(v)} |`),
    '',
    '## Copyable request',
    '',
    '```sh',
    card.copyable_request.curl,
    '```',
    '',
    '## Payment flow',
    '',
    ...card.payment_flow.map((s) => `${s.step}. **${s.action}** ${s.detail}`),
    '',
    '## Realistic example',
    '',
    '```json',
    JSON.stringify(card.realistic_example, null, 2),
    '```',
    '',
    '## Request schema',
    '',
    '```json',
    JSON.stringify(card.request_schema, null, 2),
    '```',
    '',
    '## Privacy',
    '',
    card.privacy,
    '',
    '## How it is counted',
    '',
    card.counting_note,
    '',
  ];
  return lines.join('\n');
}
