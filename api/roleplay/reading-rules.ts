/** How a help turn's reading is extracted and matched, as published with the feelings and in the OpenAPI document. */
export const READING_RULES =
  "A help turn is read with the published lexicon: each feeling's cues (words and phrases) are matched on word stems " +
  '("worried", "worry", "worrying" are one cue), longest cue first, without overlap. A cue with a negator (not, no, never, ' +
  "without, hardly, nor, any n't word) among the three words before it in the same clause (no punctuation or but/though/yet " +
  'between) is cancelled: "you don\'t seem angry" reads no anger; idioms that negate nothing ("no wonder", "no doubt", "not only", "no matter") cancel nothing. Cues that carry their own negation ("not alone", "not your ' +
  'fault") count for the feeling they reassure about. The reading is the feeling with the most counted cues; a tie goes to the ' +
  'one named first; none is no reading. The reading is correct when it equals the feeling the asker declared for the ask just ' +
  'before. A help turn scores 75 percent of its EQ score plus 25 points for a correct reading; an ask turn scores its EQ score.';
