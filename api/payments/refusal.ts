/** A payment refused before any reservation: answered with a 402 whose `error` is the reason. */
export interface Refusal {
  ok: false;
  reason: string;
  message: string;
}
