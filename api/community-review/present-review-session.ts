import { DIMENSION_QUESTIONS, RATING_MAX, RATING_MIN, REVIEW_DIMENSIONS, reviewSamples, type EngineView, type ReviewDimension } from './review-samples';
import type { SampleRatings, StoredReviewSession } from './review-sessions';

/** A session as its public view shows it (no secret, no comments). */
export interface ReviewSessionView {
  session_id: string;
  created_at: string;
  scale: { min: number; max: number };
  dimensions: Array<{ id: ReviewDimension; question: string }>;
  samples: Array<{
    sample_id: string;
    profile: { id: string; name: string };
    incoming: string;
    reply: string;
    response_delay_seconds: number;
    rated: boolean;
    ratings: SampleRatings | null;
    /** Revealed only once the sample is rated here: ratings are given blind, so the engine cannot anchor them. */
    engine: EngineView | null;
  }>;
  progress: { samples: number; rated: number };
  responses_url: string;
}

/**
 * The public view of a session.
 * @param session - the stored session with its ratings
 * @returns the view
 */
export function presentReviewSession(session: StoredReviewSession): ReviewSessionView {
  const catalog = reviewSamples();
  const samples = session.sampleIds.flatMap((id) => {
    const sample = catalog.get(id);
    // A sample retired from the catalog after the session was made is left out of the view.
    if (!sample) return [];
    const ratings = session.rated.get(id) ?? null;
    return [
      {
        sample_id: id,
        profile: sample.profile,
        incoming: sample.incoming,
        reply: sample.reply,
        response_delay_seconds: sample.response_delay_seconds,
        rated: ratings !== null,
        ratings,
        engine: ratings !== null ? sample.engine : null,
      },
    ];
  });
  return {
    session_id: session.id,
    created_at: session.createdAt.toISOString(),
    scale: { min: RATING_MIN, max: RATING_MAX },
    dimensions: REVIEW_DIMENSIONS.map((id) => ({ id, question: DIMENSION_QUESTIONS[id] })),
    samples,
    progress: { samples: samples.length, rated: samples.filter((s) => s.rated).length },
    responses_url: `/api/community-review/sessions/${session.id}/responses`,
  };
}
