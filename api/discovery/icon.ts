/** The service icon: a speech bubble with a pulse line, 64 x 64. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  <rect x="4" y="8" width="56" height="40" rx="10" fill="#1f6f5c"/>
  <path d="M18 48 L14 60 L30 48 Z" fill="#1f6f5c"/>
  <polyline points="12,30 22,30 27,20 33,40 38,26 42,30 52,30" fill="none" stroke="#ffffff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;
