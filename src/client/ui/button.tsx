// Buttons and icon buttons: one recipe, four looks (solid, outline, ghost, danger).
import { forwardRef, type ButtonHTMLAttributes } from 'react'
import { cva, cx, type RecipeVariantProps } from 'styled-system/css'

export const button = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'lg',
    cursor: 'pointer',
    transition: 'background 0.15s, border-color 0.15s, opacity 0.15s',
    whiteSpace: 'nowrap',
    _disabled: { opacity: 0.5, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      solid: {
        bgGradient: 'to-r',
        gradientFrom: 'accent.default',
        gradientTo: 'accent.pink',
        color: 'accent.fg',
        _hover: { _enabled: { opacity: 0.9 } },
      },
      outline: { borderWidth: '1px', borderColor: 'border.default', bg: 'transparent', color: 'fg.default', _hover: { _enabled: { bg: 'bg.subtle' } } },
      ghost: { bg: 'transparent', color: 'fg.muted', _hover: { _enabled: { bg: 'bg.subtle', color: 'fg.default' } } },
      danger: { bg: 'danger.emphasized', color: 'white', _hover: { _enabled: { opacity: 0.9 } } },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      md: { h: '10', px: '4', fontSize: 'sm' },
      lg: { h: '12', px: '6', fontSize: 'md' },
      icon: { h: '10', w: '10', p: '0', borderRadius: 'full' },
    },
    block: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
})

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & RecipeVariantProps<typeof button>

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant, size, block, className, type = 'button', ...props }, ref) {
  return <button ref={ref} type={type} className={cx(button({ variant, size, block }), className)} {...props} />
})
