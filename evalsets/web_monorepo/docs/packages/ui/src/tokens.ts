// Design tokens. Source of truth is the Figma library "Ferngrove UI 2"; Imogen updates this
// file when the library changes. Components read tokens, never raw hex values.

export const tokens = {
  color: {
    fern50: '#eef6f1',
    fern100: '#d3e9db',
    fern600: '#2f6b4f',
    fern700: '#255840',
    fern800: '#1b4231',
    clay500: '#c8643b',
    sand100: '#f6f1e7',
    ink900: '#1c1f1d',
    ink600: '#4a524d',
    ink300: '#a7aea9',
    white: '#ffffff',
    danger600: '#b42318',
    warning500: '#dc8a0e',
    success600: '#1f7a45',
  },
  space: { 0: '0', 1: '4px', 2: '8px', 3: '12px', 4: '16px', 6: '24px', 8: '32px', 12: '48px' },
  radius: { sm: '4px', md: '8px', lg: '16px', pill: '999px' },
  font: {
    body: '"Inter", system-ui, sans-serif',
    display: '"Fraunces", Georgia, serif',
    size: { sm: '14px', md: '16px', lg: '18px', xl: '24px', xxl: '32px' },
  },
  shadow: {
    card: '0 1px 2px rgba(28, 31, 29, 0.08), 0 2px 8px rgba(28, 31, 29, 0.06)',
  },
} as const;

// Mobile-first: styles are written for phones and widened from `md` up. Members book on
// their phones (~80% of bookings), so below md is the layout that matters most.
export const breakpoints = {
  sm: 480,
  md: 768,
  lg: 1024,
  xl: 1280,
} as const;

export type Breakpoint = keyof typeof breakpoints;

export function mediaUp(bp: Breakpoint): string {
  return `@media (min-width: ${breakpoints[bp]}px)`;
}
