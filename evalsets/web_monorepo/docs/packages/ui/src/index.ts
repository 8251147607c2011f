export { Button, type ButtonProps } from './Button';
export { tokens, breakpoints, mediaUp, type Breakpoint } from './tokens';
