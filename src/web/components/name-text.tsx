import { Text, type TextProps } from '@mantine/core';

interface NameTextProps extends TextProps {
  /** The name (an app's, a bot's, a provider's): up to 120 characters. */
  children: string;
  /** Lines shown before the ellipsis: 1 for a row or card, 2 for a heading. */
  lines?: number;
}

/**
 * A name in a row, card or heading: cut with an ellipsis when it does not fit (the whole name in its tooltip),
 * so a 120-character name never widens its row. It needs a width to fit in: a flex parent gives its item
 * `minWidth: 0`, a table cell gives the text a `maw`.
 * @example <NameText fw={600} size="sm" maw={360}>{app.appName}</NameText>
 */
export function NameText({ children, lines = 1, ...props }: NameTextProps) {
  return (
    <Text
      title={children}
      {...(lines === 1 ? { truncate: 'end' as const } : { lineClamp: lines, style: { overflowWrap: 'break-word' } })}
      {...props}
    >
      {children}
    </Text>
  );
}
