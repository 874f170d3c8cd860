import type { Tempo } from '../profiles/profile';

/** What the timing model needs to know about the exchange. */
export interface TimingInput {
  delaySeconds: number;
  /** Characters in the reply (typing cost). */
  replyChars: number;
  /** Words in the incoming message (reading cost); 0 without one. */
  incomingWords: number;
  /** Question marks in the incoming message (each adds think time, up to 4). */
  incomingQuestions: number;
}

/** The timing verdict for one profile. */
export interface TimingModel {
  measured: number;
  expected: number;
  /** The 80% plausible window [low, high] in seconds. */
  window: [number, number];
  fit: number;
  /** Faster than any human could read and compose: a hard fail. */
  superhuman: boolean;
  /** The superhuman floor in seconds. */
  floor: number;
  components: { read: number; think: number; type: number };
}

const Z80 = 1.2816; // the 80% two-sided normal quantile
const CHARS_PER_WORD = 5;
const COMPOSE_FACTOR = 0.6; // composing vs copy-typing (Karat et al. 1999)
const FLOOR_TYPE_WPM = 150; // beyond the fastest copy-typists (Dhakal et al. 2018)
const FLOOR_READ_WPM = 600; // skimming

/**
 * The fastest delay any human could manage: composing at 150 wpm after skimming at 600 wpm.
 * It does not depend on the profile, so human_likeness can use it too.
 * @param replyChars - characters in the reply
 * @param incomingWords - words in the incoming message
 * @returns seconds
 */
export function superhumanFloor(replyChars: number, incomingWords: number): number {
  return (60 * (replyChars / CHARS_PER_WORD)) / FLOOR_TYPE_WPM + (60 * incomingWords) / FLOOR_READ_WPM;
}

/** Read, think and type seconds of a reply for a tempo (their sum is the expected delay). */
function componentsOf(input: TimingInput, tempo: Tempo): { read: number; think: number; type: number } {
  return {
    read: (60 * input.incomingWords) / tempo.readWpm,
    think: tempo.thinkSeconds * (1 + 0.25 * Math.min(input.incomingQuestions, 4)),
    type: (60 * (input.replyChars / CHARS_PER_WORD)) / (COMPOSE_FACTOR * tempo.typeWpm),
  };
}

/** The 80% plausible window [low, high] around the expected delay: the slow tail is 1.5 times longer. */
function windowLow(expected: number, tempo: Tempo): number {
  return expected * Math.exp(-Z80 * tempo.sigma);
}

function windowHigh(expected: number, tempo: Tempo): number {
  return expected * Math.exp(Z80 * (1.5 * tempo.sigma));
}

/** The fit of a delay to the window [low, high] around the expected delay. */
function fitIn(d: number, expected: number, low: number, high: number, tempo: Tempo): number {
  if (d >= low && d <= high) return 1;
  if (d <= 0) return 0;
  const sigma = d < expected ? tempo.sigma : 1.5 * tempo.sigma;
  const excess = (Math.abs(Math.log(d / expected)) - Z80 * sigma) / sigma;
  return Math.exp(-0.5 * excess * excess);
}

/**
 * Models the delay as log-normal around read + think + type time, with a longer slow tail
 * (people get interrupted; too fast is more suspicious than too slow, Kalman & Rafaeli 2011).
 * @param input - the exchange
 * @param tempo - the profile's tempo
 * @returns expected delay, the 80% window, the fit in 0..1 and the superhuman flag
 */
export function modelTiming(input: TimingInput, tempo: Tempo): TimingModel {
  const components = componentsOf(input, tempo);
  const expected = components.read + components.think + components.type;
  const window: [number, number] = [windowLow(expected, tempo), windowHigh(expected, tempo)];
  const floor = superhumanFloor(input.replyChars, input.incomingWords);
  const d = input.delaySeconds;
  return { measured: d, expected, window, fit: fitIn(d, expected, window[0], window[1], tempo), superhuman: d < floor, floor, components };
}

/**
 * The fit alone of {@link modelTiming}, by the same arithmetic and without its records: ranking
 * all 28 profiles needs nothing else.
 * @param input - the exchange
 * @param tempo - the profile's tempo
 * @returns the fit in 0..1
 */
export function timingFit(input: TimingInput, tempo: Tempo): number {
  const c = componentsOf(input, tempo);
  const expected = c.read + c.think + c.type;
  return fitIn(input.delaySeconds, expected, windowLow(expected, tempo), windowHigh(expected, tempo), tempo);
}
