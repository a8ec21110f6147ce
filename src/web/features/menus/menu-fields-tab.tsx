import { ActionIcon, Checkbox, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { describeLanguage, type AppLanguages } from '../../../shared/app';
import { applyLookAlikes } from '../../../shared/ussd-encoding';
import classes from './menus.module.css';
import { SaveToContactField } from './contact-field-inputs';
import { MenuTranslationFields } from './menu-translation-fields';
import { toggleTerminate, type FormErrors, type MenuFormValues } from './menu-form-state';
import { MenuScreenPreview, type PreviewApp } from './menu-screen-preview';
import { TemplateTextarea, TemplateTextInput } from './template-text-input';

interface MenuFieldsTabProps {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  errors: FormErrors;
  app: PreviewApp;
}

const IDENTIFIER_TOOLTIP =
  'The menu identifier is unique, no spaces. It names what the caller types here: a menu named amount gives {{ session.inputs.amount }}';

/** Menu tab: identifier, text with {{ }} variables, header, footer, input holder, Back Menu, terminate; the live preview beside. */
export function MenuFieldsTab({ values, set, errors, app }: MenuFieldsTabProps) {
  const err = (field: string) => errors[field]?.message;
  const languages = app.languages;
  const [language, setLanguage] = useState('');
  const other = languages?.otherLanguages.includes(language as never) ? language : '';
  return (
    <div className={classes.previewGrid}>
      <Stack gap="md">
        {languages && languages.otherLanguages.length > 0 && (
          <LanguageSwitcher languages={languages} value={other} onChange={setLanguage} />
        )}
        {languages && other !== '' ? (
          <MenuTranslationFields values={values} set={set} defaultLanguage={languages.defaultLanguage} language={other} errors={errors} />
        ) : (
          <MenuDefaultFields values={values} set={set} err={err} />
        )}
      </Stack>
      <MenuScreenPreview
        app={app}
        menu={values}
        language={other || undefined}
        onApplyLookAlikes={(lookAlikes) => set(withLookAlikes(values, other, lookAlikes))}
      />
    </div>
  );
}

/** The change that puts GSM look-alikes into the screen texts of one language ('' the default) of the menu. */
function withLookAlikes(values: MenuFormValues, language: string, lookAlikes: Record<string, string>): Partial<MenuFormValues> {
  const swap = (text: string | undefined) => (text ? applyLookAlikes(text, lookAlikes) : text);
  if (language === '')
    return { headerText: swap(values.headerText), displayText: swap(values.displayText), footerText: swap(values.footerText) };
  const screen = values.translations[language] ?? {};
  return {
    translations: {
      ...values.translations,
      [language]: {
        ...screen,
        headerText: swap(screen.headerText),
        displayText: swap(screen.displayText),
        footerText: swap(screen.footerText),
      },
    },
  };
}

function MenuDefaultFields({
  values,
  set,
  err,
}: {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  err: (field: string) => string | undefined;
}) {
  return (
    <Stack gap="md">
      <TextInput
        label="Menu identifier"
        rightSectionPointerEvents="all"
        rightSection={
          <Tooltip label={IDENTIFIER_TOOLTIP} multiline w={260} withArrow events={{ hover: true, focus: true, touch: true }}>
            <ActionIcon variant="subtle" size="sm" color="gray" aria-label="About the menu identifier">
              <IconInfoCircle size={16} />
            </ActionIcon>
          </Tooltip>
        }
        placeholder="e.g. enterAmount"
        value={values.userDefinedName}
        onChange={(e) => set({ userDefinedName: e.currentTarget.value })}
        error={err('userDefinedName')}
        withAsterisk
        data-autofocus
      />
      <TemplateTextarea
        label="Menu text"
        description="Variables go in double curly braces: type {{ to pick one, e.g. {{ session.inputs.name }} reads the input of the menu named name"
        placeholder={'Welcome to Kofi Shop\n1. Buy airtime\n2. Check balance'}
        value={values.displayText}
        onChange={(displayText) => set({ displayText })}
        error={err('displayText')}
        withAsterisk
        autosize
        minRows={4}
        maxRows={14}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TemplateTextInput
          label="Header text"
          description="Shown above the menu text"
          value={values.headerText}
          onChange={(headerText) => set({ headerText })}
          error={err('headerText')}
        />
        <TemplateTextInput
          label="Footer text"
          description="Shown below the menu text"
          value={values.footerText}
          onChange={(footerText) => set({ footerText })}
          error={err('footerText')}
        />
      </SimpleGrid>
      <TextInput
        label="Input holder"
        description="Hint in the reply box, e.g. Enter amount"
        value={values.inputHolder}
        onChange={(e) => set({ inputHolder: e.currentTarget.value })}
        error={err('inputHolder')}
        disabled={values.terminate}
      />
      <SaveToContactField
        value={values.saveToContact}
        onChange={(saveToContact) => set({ saveToContact })}
        error={err('saveToContact')}
        disabled={values.terminate}
      />
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Checkbox
          label="Back Menu"
          description={values.terminate ? 'A menu that ends the session has no Back' : 'The indicator returns to the previous menu'}
          checked={values.allowGoBack}
          onChange={(e) => set({ allowGoBack: e.currentTarget.checked })}
          disabled={values.terminate}
          mt={6}
        />
        <TextInput
          label="Back indicator"
          value={values.goBackInputIndicator}
          onChange={(e) => set({ goBackInputIndicator: e.currentTarget.value })}
          error={err('goBackInputIndicator')}
          disabled={!values.allowGoBack}
          w={150}
          maxLength={20}
        />
      </Group>
      <Checkbox
        label="Terminate"
        description="End the session after this screen (no reply is asked)"
        checked={values.terminate}
        onChange={(e) => set(toggleTerminate(values, e.currentTarget.checked))}
      />
      {values.isFirst && (
        <Text size="xs" c="dimmed">
          This is the first menu: sessions start here.
        </Text>
      )}
    </Stack>
  );
}

/** The language whose texts the tab shows: buttons for up to three languages, a list beyond (it fits a phone). */
function LanguageSwitcher({ languages, value, onChange }: { languages: AppLanguages; value: string; onChange: (code: string) => void }) {
  const data = [
    { value: languages.defaultLanguage, label: `${describeLanguage(languages.defaultLanguage)}, default` },
    ...languages.otherLanguages.map((code) => ({ value: code, label: describeLanguage(code) })),
  ];
  return data.length <= 3 ? (
    <SegmentedControl
      aria-label="Language of the texts"
      data-testid="menu-language-switcher"
      value={value}
      onChange={onChange}
      data={data}
    />
  ) : (
    <Select
      label="Language of the texts"
      data-testid="menu-language-switcher"
      data={data}
      value={value || languages.defaultLanguage}
      onChange={(code) => onChange(code ?? languages.defaultLanguage)}
      allowDeselect={false}
      maw={320}
    />
  );
}
