/** The browser component's major version: its path changes only with an incompatible change. */
export const COMPONENT_VERSION = 1;

/**
 * The stable, versioned path the `<humanlike-check>` component is served at. Shared so that the
 * catalog's install snippet names the very path the embed family serves.
 */
export const COMPONENT_PATH = `/api/embed/humanlike-check-${COMPONENT_VERSION}.js`;
