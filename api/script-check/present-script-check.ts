import { SCRIPT_CHECK_METHOD, type ScriptCheckResult } from '../../shared/script-check/check-script';

/**
 * The response body of a paid script check. The payment pipeline adds what every paid response
 * carries (referral code, reward tokens, payment).
 * @param resultId - public id of the result
 * @param check - the worker's check
 * @returns the body (stored as is for replays)
 */
export function presentScriptCheck(resultId: string, check: ScriptCheckResult): Record<string, unknown> {
  return {
    result_id: resultId,
    method: 'string_and_number_matching',
    method_note: SCRIPT_CHECK_METHOD,
    offsets: 'UTF-16 code units, as JavaScript strings index: reply_text.slice(start, end) is the claim.',
    adherence_score: check.adherence_score,
    claims_checked: check.claims_checked,
    on_script: check.on_script,
    off_script: check.off_script,
    by_kind: check.by_kind,
    claims: check.claims,
    improvement: check.improvement,
  };
}
