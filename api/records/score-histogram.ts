import { escapeHtml } from '../http/html-page';

const WIDTH = 120;
const HEIGHT = 32;

/**
 * A profile's score distribution as a small inline SVG bar chart (ten bands of ten EQ points, low
 * scores left), for a table cell. It draws with `currentColor`, so it follows the page's colours
 * in light and dark mode; its title says every count for screen readers.
 * @param name - the profile's display name
 * @param counts - sessions per band, 0-9.9 first
 * @returns the SVG element
 */
export function renderScoreHistogram(name: string, counts: readonly number[]): string {
  const max = Math.max(1, ...counts);
  const bar = WIDTH / counts.length;
  const bands = counts.map((n, i) => `${i * 10}-${i === counts.length - 1 ? 100 : i * 10 + 9}: ${n}`).join(', ');
  const bars = counts
    .map((n, i) => {
      const h = n === 0 ? 0 : Math.max(2, Math.round(((HEIGHT - 2) * n) / max));
      return `<rect x="${i * bar + 1}" y="${HEIGHT - h}" width="${bar - 2}" height="${h}" fill="currentColor"/>`;
    })
    .join('');
  return (
    // Drawn at three quarters of its viewBox: it fits a phone's table beside four other columns.
    `<svg class="histogram" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH * 0.75}" height="${HEIGHT * 0.75}" role="img">` +
    `<title>${escapeHtml(`EQ scores of ${name}, sessions per band: ${bands}`)}</title>` +
    `<line x1="0" x2="${WIDTH}" y1="${HEIGHT - 0.5}" y2="${HEIGHT - 0.5}" stroke="currentColor" stroke-opacity=".35"/>${bars}</svg>`
  );
}
