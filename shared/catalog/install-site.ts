import { COMPONENT_PATH } from '../embed/component-path';
import type { OutboundGuard } from '../http/outbound-guard';

/** The well-known folder on a site origin where workflows' challenges are published (as ACME's http-01). */
export const CHALLENGE_DIR = '/.well-known/humanlike-install';

/**
 * Where one workflow's challenge is published: a path of its own, so several installs on one
 * origin never overwrite each other's challenge.
 * @param workflowId - the workflow id
 * @returns the path on the origin
 */
export function challengePath(workflowId: string): string {
  return `${CHALLENGE_DIR}/${workflowId}.txt`;
}

/**
 * The attribute that marks one install's snippet on a page: it names the workflow, so a page
 * carrying another install's snippet proves nothing for this one.
 * @param workflowId - the workflow id
 * @returns the attribute as it appears in the snippet
 */
export function installMarker(workflowId: string): string {
  return `data-humanlike-install="${workflowId}"`;
}

/**
 * The snippet a developer pastes into the page: the script tag of the embedded check component,
 * marked with the install, and the element that wraps the page's textarea. It holds no secret:
 * the component talks only to the developer's own host route, which keeps the bundle token.
 * @param componentUrl - absolute URL of the component on this service
 * @param workflowId - the workflow id
 * @returns the HTML
 */
export function installSnippet(componentUrl: string, workflowId: string): string {
  return [
    `<script type="module" src="${componentUrl}" ${installMarker(workflowId)}></script>`,
    '<humanlike-check endpoint="/your/host/route"><textarea></textarea></humanlike-check>',
  ].join('\n');
}

/** What a check of a site found. */
export type SiteCheck = { ok: true } | { ok: false; reason: 'challenge_missing' | 'challenge_mismatch' | 'snippet_missing'; status: number };

/**
 * Fetches the challenge from the origin's well-known path and compares it exactly (trailing
 * whitespace, such as the newline an editor adds, is ignored; nothing else is).
 * @param guard - the outbound guard (every fetch of a caller's site goes through it)
 * @param install - the workflow id (its challenge's path), the site origin and the expected challenge
 * @returns ok, or why not
 * @throws OutboundRefusal when the guard refuses or cannot finish the fetch
 */
export async function checkChallenge(guard: OutboundGuard, install: { id: string; siteOrigin: string; challenge: string }): Promise<SiteCheck> {
  const answer = await guard.fetch(new URL(challengePath(install.id), install.siteOrigin), { contentTypes: ['text/plain'] });
  if (answer.status !== 200) return { ok: false, reason: 'challenge_missing', status: answer.status };
  const text = (await answer.text()).replace(/\s+$/, '');
  return text === install.challenge ? { ok: true } : { ok: false, reason: 'challenge_mismatch', status: answer.status };
}

/**
 * Fetches the live page and looks for the install's script tag: one `<script>` tag that loads the
 * component's path and carries the install's marker.
 * @param guard - the outbound guard
 * @param pageUrl - the page the snippet was installed on
 * @param workflowId - the workflow id
 * @returns ok, or snippet_missing
 * @throws OutboundRefusal when the guard refuses or cannot finish the fetch
 */
export async function checkSnippet(guard: OutboundGuard, pageUrl: string, workflowId: string): Promise<SiteCheck> {
  const answer = await guard.fetch(pageUrl, { contentTypes: ['text/html'] });
  if (answer.status !== 200) return { ok: false, reason: 'snippet_missing', status: answer.status };
  const html = await answer.text();
  const marker = installMarker(workflowId);
  const found = (html.match(/<script\b[^>]*>/gi) ?? []).some((tag) => tag.includes(marker) && tag.includes(`${COMPONENT_PATH}"`));
  return found ? { ok: true } : { ok: false, reason: 'snippet_missing', status: answer.status };
}

/**
 * The whole check of a live install, as the re-verification runs it: the challenge still
 * published, then the snippet still on the page.
 * @param guard - the outbound guard
 * @param install - origin, challenge, page and workflow id
 * @returns ok, or the first thing that disappeared
 * @throws OutboundRefusal when the guard refuses or cannot finish a fetch
 */
export async function checkLiveInstall(guard: OutboundGuard, install: { siteOrigin: string; challenge: string; pageUrl: string; id: string }): Promise<SiteCheck> {
  const challenge = await checkChallenge(guard, install);
  if (!challenge.ok) return challenge;
  return checkSnippet(guard, install.pageUrl, install.id);
}
