import clsx from 'clsx';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md' | 'lg';

type CommonProps = {
  variant?: Variant;
  size?: Size;
  /** shows a spinner and disables the button; added in 1.7.0 */
  loading?: boolean;
  fullWidth?: boolean;
  children: ReactNode;
};

export type ButtonProps = CommonProps &
  (
    | ({ href?: undefined } & ButtonHTMLAttributes<HTMLButtonElement>)
    | ({ href: string } & AnchorHTMLAttributes<HTMLAnchorElement>)
  );

/**
 * The one button. Renders an <a> when given `href`, otherwise a <button type="button">
 * (pass type="submit" explicitly in forms).
 */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  fullWidth = false,
  children,
  className,
  ...rest
}: ButtonProps) {
  const classes = clsx(
    'fg-btn',
    `fg-btn--${variant}`,
    `fg-btn--${size}`,
    { 'fg-btn--full': fullWidth, 'fg-btn--loading': loading },
    className,
  );

  if ('href' in rest && rest.href !== undefined) {
    const { href, ...anchorProps } = rest as AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };
    return (
      <a href={href} className={classes} aria-busy={loading || undefined} {...anchorProps}>
        {children}
      </a>
    );
  }

  const { type = 'button', disabled, ...buttonProps } = rest as ButtonHTMLAttributes<HTMLButtonElement>;
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...buttonProps}
    >
      {loading && <span className="fg-btn__spinner" aria-hidden="true" />}
      <span className="fg-btn__label">{children}</span>
    </button>
  );
}
