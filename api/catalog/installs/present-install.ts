import { challengePath } from '../../../shared/catalog/install-site';
import type { InstallRow } from '../../../shared/catalog/install-store';

/** The workflow's paths, by step. */
export function workflowPaths(id: string) {
  const base = `/api/catalog/free-installs/${id}`;
  return {
    next_action: `${base}/next-action`,
    challenge_published: `${base}/challenge-published`,
    installation: `${base}/installation`,
    code: `${base}/code`,
    live_verification: `${base}/live-verification`,
    proof: `/api/catalog/verified-installs/${id}`,
  };
}

/**
 * Whether the workflow's challenge expired before it was found on the site.
 * @param install - the workflow
 * @param now - the current time
 * @returns true when the challenge can no longer be published
 */
export function challengeExpired(install: InstallRow, now = new Date()): boolean {
  return install.state === 'awaiting_challenge' && install.challengeExpiresAt.getTime() <= now.getTime();
}

/**
 * The challenge as the caller publishes it.
 * @param install - the workflow
 * @returns where and what to publish, and until when
 */
export function presentChallenge(install: InstallRow) {
  return {
    path: challengePath(install.id),
    url: `${install.siteOrigin}${challengePath(install.id)}`,
    content: install.challenge,
    content_type: 'text/plain',
    expires_at: install.challengeExpiresAt.toISOString(),
  };
}

/**
 * What the caller must do now, machine-readable: `action` is a stable code, `request` the call
 * that completes it (when the action is a call), `instructions` one sentence for a person.
 * @param install - the workflow
 * @returns the next action
 */
export function nextAction(install: InstallRow): Record<string, unknown> {
  const paths = workflowPaths(install.id);
  const base = { workflow_id: install.id, state: install.state, offering_id: install.offeringId, site_origin: install.siteOrigin };
  if (challengeExpired(install)) {
    return {
      ...base,
      state: 'challenge_expired',
      action: 'start_again',
      request: { method: 'POST', path: '/api/catalog/free-installs/start' },
      instructions: 'The challenge expired before it was found on the site; start a new workflow.',
    };
  }
  switch (install.state) {
    case 'awaiting_challenge':
      return {
        ...base,
        action: 'publish_challenge',
        challenge: presentChallenge(install),
        request: { method: 'POST', path: paths.challenge_published },
        instructions: `Serve challenge.content (exactly, as text/plain) at ${install.siteOrigin}${challengePath(install.id)}, then call request.`,
      };
    case 'challenge_verified':
      return {
        ...base,
        action: 'record_installation',
        request: { method: 'POST', path: paths.installation, body: { page_url: `${install.siteOrigin}/…` } },
        instructions: 'Say which page of the site the snippet goes on.',
      };
    case 'install_recorded':
      return {
        ...base,
        action: 'paste_snippet_and_verify',
        page_url: install.pageUrl,
        code: { method: 'GET', path: paths.code },
        request: { method: 'POST', path: paths.live_verification },
        instructions: 'Paste the snippet from code into the page, publish it, keep the challenge published, then call request.',
      };
    case 'verified':
      return {
        ...base,
        action: 'none',
        proof: { method: 'GET', path: paths.proof },
        plans: { method: 'GET', path: '/api/catalog/agent/catalog' },
        instructions: 'The install is verified. Keep the snippet and the challenge published: both are checked again regularly.',
      };
    case 'revoked':
      return {
        ...base,
        action: 'start_again',
        revoked_reason: install.revokedReason,
        request: { method: 'POST', path: '/api/catalog/free-installs/start' },
        instructions: 'A re-check no longer found the install; its badge is revoked. Start a new workflow to verify it again.',
      };
  }
}

/**
 * The workflow as its own endpoints answer it.
 * @param install - the workflow
 * @returns the workflow view
 */
export function presentWorkflow(install: InstallRow): Record<string, unknown> {
  return {
    workflow_id: install.id,
    offering_id: install.offeringId,
    site_origin: install.siteOrigin,
    state: install.state,
    challenge: presentChallenge(install),
    page_url: install.pageUrl,
    created_at: install.createdAt.toISOString(),
    challenge_verified_at: install.challengeVerifiedAt?.toISOString() ?? null,
    installed_at: install.installedAt?.toISOString() ?? null,
    verified_at: install.verifiedAt?.toISOString() ?? null,
    links: workflowPaths(install.id),
  };
}
