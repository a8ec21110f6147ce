import { Combobox, Text, Textarea, TextInput, useCombobox, type TextareaProps, type TextInputProps } from '@mantine/core';
import { createContext, useContext, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { TemplateVariable } from '../../../engine';
import { filterVariables, findTypedVariable, insertVariable, type TypedVariable } from './template-variables';

/** The variables the open menu's templates can read (listFormVariables), for every templated field under it. */
const TemplateVariablesContext = createContext<TemplateVariable[]>([]);
export const TemplateVariablesProvider = TemplateVariablesContext.Provider;

/** The variables of the open menu's app, as the templated fields offer them. */
export function useTemplateVariables(): TemplateVariable[] {
  return useContext(TemplateVariablesContext);
}

type FieldElement = HTMLInputElement | HTMLTextAreaElement;

/**
 * Typing `{{` in the field lists the app's variables under it: typing narrows the list, Up and Down move, Enter or
 * Tab puts the variable in, Escape closes the list. The field stays a plain text field otherwise (Enter in a
 * textarea is a new line when no list is open): a textbox with `aria-autocomplete="list"` whose
 * `aria-activedescendant` names the chosen option, so screen readers read the choice without the field changing role.
 */
function useTemplateSuggestions(value: string, onChange: (value: string) => void) {
  const variables = useContext(TemplateVariablesContext);
  const listId = useId();
  const ref = useRef<FieldElement>(null);
  const [typed, setTyped] = useState<TypedVariable | null>(null);
  const [active, setActive] = useState(0);
  const pendingCaret = useRef<number | null>(null);
  const options = typed ? filterVariables(variables, typed.query) : [];
  const isOpen = options.length > 0;
  const combobox = useCombobox({ opened: isOpen });
  const current = Math.min(active, Math.max(options.length - 1, 0));

  useLayoutEffect(() => {
    if (pendingCaret.current === null || !ref.current) return;
    ref.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  });

  /** Reads what is typed at the caret, after an edit, a click or a caret move. */
  const readCaret = (element: FieldElement, text = element.value) => {
    const caret = element.selectionStart ?? text.length;
    const next = element.selectionEnd === caret ? findTypedVariable(text, caret) : null;
    if (next?.query !== typed?.query || next?.start !== typed?.start) setActive(0);
    setTyped(next);
  };

  const pick = (path: string) => {
    const element = ref.current;
    if (!element || !typed) return;
    const inserted = insertVariable(value, element.selectionStart ?? value.length, typed, path);
    pendingCaret.current = inserted.caret;
    setTyped(null);
    onChange(inserted.value);
  };

  const onKeyDown = (event: KeyboardEvent<FieldElement>) => {
    if (!isOpen) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(options[current]!.path);
    } else if (event.key === 'Escape') {
      // The list closes; a dialog or drawer around the field stays open.
      event.preventDefault();
      event.stopPropagation();
      setTyped(null);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  const fieldProps = {
    ref,
    value,
    onChange: (event: { currentTarget: FieldElement }) => {
      onChange(event.currentTarget.value);
      readCaret(event.currentTarget);
    },
    onKeyDown,
    onKeyUp: (event: KeyboardEvent<FieldElement>) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) readCaret(event.currentTarget);
    },
    onClick: (event: { currentTarget: FieldElement }) => readCaret(event.currentTarget),
    onBlur: () => setTyped(null),
    'aria-autocomplete': 'list' as const,
    'aria-controls': isOpen ? listId : undefined,
    'aria-activedescendant': isOpen ? optionId(current) : undefined,
  };

  const wrap = (field: ReactElement) => (
    <Combobox
      store={combobox}
      onOptionSubmit={(path) => pick(String(path))}
      position="bottom-start"
      width="target"
      withinPortal
      zIndex={400}
    >
      <Combobox.Target withKeyboardNavigation={false} withAriaAttributes={false}>
        {field}
      </Combobox.Target>
      {isOpen && (
        <Combobox.Dropdown data-testid="template-suggestions">
          <Combobox.Options id={listId} aria-label="Template variables" mah={260} style={{ overflowY: 'auto' }}>
            {options.map((v, i) => (
              <Combobox.Option
                key={v.path}
                value={v.path}
                id={optionId(i)}
                selected={i === current}
                aria-selected={i === current}
                onMouseEnter={() => setActive(i)}
              >
                <Text size="sm" ff="monospace">
                  {v.path}
                </Text>
                {/* Grey on the chosen option's filled background would be unreadable: it takes the option's colour. */}
                <Text size="xs" c={i === current ? 'inherit' : 'dimmed'}>
                  {v.detail}
                </Text>
              </Combobox.Option>
            ))}
          </Combobox.Options>
        </Combobox.Dropdown>
      )}
    </Combobox>
  );

  return { fieldProps, wrap };
}

type TemplateProps<P> = Omit<P, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** A TextInput that holds a template: typing `{{` offers the app's variables. */
export function TemplateTextInput({ value, onChange, ...props }: TemplateProps<TextInputProps>) {
  const { fieldProps, wrap } = useTemplateSuggestions(value, onChange);
  return wrap(<TextInput {...props} {...(fieldProps as object)} />);
}

/** A Textarea that holds a template: typing `{{` offers the app's variables. */
export function TemplateTextarea({ value, onChange, ...props }: TemplateProps<TextareaProps>) {
  const { fieldProps, wrap } = useTemplateSuggestions(value, onChange);
  return wrap(<Textarea {...props} {...(fieldProps as object)} />);
}
