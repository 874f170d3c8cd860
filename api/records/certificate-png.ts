import { renderAsync } from '@resvg/resvg-js';

/**
 * Renders the certificate's SVG to PNG for share crawlers, most of which ignore SVG images.
 * resvg (Rust, prebuilt for each platform as an npm optional dependency) draws it on libuv's
 * thread pool, so the event loop stays free; text uses the system's fonts.
 * @param svg - the certificate image as SVG (1200 x 630)
 * @returns the PNG bytes, 1200 x 630
 */
export async function renderCertificatePng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    fitTo: { mode: 'width', value: 1200 },
    font: { loadSystemFonts: true },
  });
  return image.asPng();
}
