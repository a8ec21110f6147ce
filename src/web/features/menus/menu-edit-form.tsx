import { ActionIcon, Alert, Badge, Box, Button, Collapse, Group, Paper, Tabs, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { confirmDiscard } from '../../lib/confirm-discard';
import { listAppLanguages, validateMenu, type FieldError, type MenuBody, type MenuLite } from '../../../shared/app';
import type { ActionEditor } from './action-edit-form';
import classes from './menus.module.css';
import { MenuActionsTab } from './menu-actions-tab';
import { MenuFieldsTab } from './menu-fields-tab';
import { MenuMediaTab } from './menu-media-tab';
import {
  checkMenuForm,
  countErrorsByTab,
  errorsUnder,
  FORM_MESSAGES,
  getTabOfField,
  isFormDirty,
  loadMenuForm,
  readMenuForm,
  toFormErrors,
  type ActionDraft,
  type FormErrors,
  type MenuDraft,
  type MenuFormTab,
  type MenuFormValues,
} from './menu-form-state';
import { MenuNavigationTab } from './menu-navigation-tab';
import type { PreviewApp } from './menu-screen-preview';
import { MenuValidationTab } from './menu-validation-tab';
import { TemplateVariablesProvider } from './template-text-input';
import { listFormVariables } from './template-variables';

export type MenuSubmitResult = { ok: true } | { ok: false; errors?: FieldError[] };

interface MenuEditFormProps {
  app: PreviewApp;
  menu: MenuDraft;
  /** The app's menus (lite): navigation targets and the identifier's uniqueness. */
  menus: MenuLite[];
  initialTab?: MenuFormTab;
  /** Opened from a deploy issue: mark the menu's problems at once. */
  showProblemsOnOpen?: boolean;
  /** The deploy checks' broken gotos of this menu (lintApp, codes missing_target and no_target): marked on open. */
  brokenTargets?: readonly { field?: string; message: string }[];
  /** `opened`: the menu as it was when the form opened, so a save can tell whether someone changed it meanwhile. */
  onSubmit: (body: MenuBody, opened: MenuDraft) => Promise<MenuSubmitResult>;
  onClose: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
}

const TAB_LABELS: Record<MenuFormTab, string> = {
  menu: 'Menu',
  navigation: 'Navigation',
  actions: 'Actions',
  validation: 'Validation',
  media: 'Media',
};
const ALL_TABS = Object.keys(TAB_LABELS) as MenuFormTab[];
/** Media is a bot's only: a USSD app is never offered it (docs/bots.md, "Media"). */
const USSD_TABS = ALL_TABS.filter((t) => t !== 'media');

export const DISCARD_QUESTION = 'Your changes to this menu are not saved. Discard them?';

/** The menu edit form: a collapsible panel with the Menu, Navigation, Actions and Validation tabs, Cancel and Save. */
export function MenuEditForm({
  app,
  menu,
  menus,
  initialTab = 'menu',
  showProblemsOnOpen = false,
  brokenTargets = [],
  onSubmit,
  onClose,
  onDirtyChange,
}: MenuEditFormProps) {
  const initial = useMemo(() => loadMenuForm(menu), [menu]);
  const [values, setValues] = useState<MenuFormValues>(initial);
  const [opened] = useState(menu);
  const [errors, setErrors] = useState<FormErrors>(() => {
    if (showProblemsOnOpen)
      return checkMenuForm(
        initial,
        menus.filter((m) => m.uniqueId !== initial.uniqueId),
      ).errors;
    // A rule whose target was deleted shows where it is, before any save or deploy.
    const { toFormPath } = readMenuForm(initial);
    return toFormErrors(brokenTargets.flatMap((e) => (e.field ? [{ field: toFormPath(e.field), message: e.message }] : [])));
  });
  const [tab, setTab] = useState<MenuFormTab>(initialTab);
  const [isExpanded, setExpanded] = useState(true);
  const [editor, setEditor] = useState<ActionEditor>({ mode: 'idle' });
  const [isSaving, setSaving] = useState(false);
  const others = menus.filter((m) => m.uniqueId !== values.uniqueId);
  // What the templated fields offer after `{{`: the app's variables, this menu's as the form has them now.
  const variables = useMemo(
    () =>
      listFormVariables(app, {
        uniqueId: values.uniqueId,
        userDefinedName: values.userDefinedName,
        actions: values.actions,
        saveToContact: values.saveToContact.trim() || undefined,
        switchOperations: values.rules,
        inputKind: values.inputKind,
      }),
    [app, values.uniqueId, values.userDefinedName, values.actions, values.saveToContact, values.rules, values.inputKind],
  );
  const isDirty = isFormDirty(initial, values) || editor.mode !== 'idle';
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  const set = (patch: Partial<MenuFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    // A field's error goes once it is edited; list edits shift indexes, so their errors go as a whole.
    setErrors((e) => {
      const out = { ...e };
      for (const key of Object.keys(patch)) {
        const prefix =
          key === 'validations'
            ? 'validations.'
            : key === 'rules'
              ? 'rules.'
              : key === 'actions'
                ? 'actions.'
                : key === 'attachments' || key === 'mediaInput'
                  ? `${key}.`
                  : null;
        for (const field of Object.keys(out)) {
          if (
            field === key ||
            (prefix && field.startsWith(prefix)) ||
            (key === 'alwaysGoto' && (field === 'alwaysTarget' || field.startsWith('rules.')))
          )
            delete out[field];
          if (key === 'allowGoBack' && field === 'goBackInputIndicator') delete out[field];
        }
      }
      return out;
    });
  };

  const checkAction = (actions: ActionDraft[], index: number): FormErrors => {
    const { body } = readMenuForm({ ...values, actions });
    const found = validateMenu(body, others).filter((e) => e.field === `actions.${index}` || e.field.startsWith(`actions.${index}.`));
    return errorsUnder(toFormErrors(found), `actions.${index}`);
  };

  const showErrors = (found: FormErrors) => {
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) setTab(getTabOfField(first));
    setExpanded(true);
  };

  const isActionOpen = editor.mode !== 'idle';
  const save = async () => {
    if (isActionOpen) return;
    const checked = checkMenuForm(values, others);
    if (Object.keys(checked.errors).length > 0) return showErrors(checked.errors);
    setSaving(true);
    try {
      const result = await onSubmit(checked.body, opened);
      if (!result.ok && result.errors?.length) {
        const read = readMenuForm(values);
        showErrors(toFormErrors(result.errors.map((e) => ({ ...e, field: read.toFormPath(e.field) }))));
      }
    } finally {
      setSaving(false);
    }
  };

  const tabs = app.channel === 'whatsapp' ? ALL_TABS : USSD_TABS;
  const counts = countErrorsByTab(errors);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const title = values.uniqueId ? `Edit menu ${initial.userDefinedName}` : 'New menu';

  return (
    <Paper
      withBorder
      radius="lg"
      shadow="xs"
      component="section"
      aria-label={title}
      data-testid="menu-edit-form"
      className={classes.editorContainer}
    >
      <Group
        justify="space-between"
        px="md"
        py="sm"
        wrap="nowrap"
        style={{ borderBottom: isExpanded ? '1px solid var(--mantine-color-gray-2)' : undefined }}
      >
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={() => setExpanded((e) => !e)}
            aria-label={isExpanded ? 'Collapse the menu form' : 'Expand the menu form'}
            aria-expanded={isExpanded}
          >
            <IconChevronDown
              size={18}
              style={{ transform: isExpanded ? undefined : 'rotate(-90deg)', transition: 'transform 150ms ease' }}
            />
          </ActionIcon>
          <Text fw={700} truncate="end">
            {title}
          </Text>
          {isDirty && (
            <Badge size="sm" variant="light" color="yellow" style={{ flexShrink: 0 }}>
              Unsaved
            </Badge>
          )}
        </Group>
        <Tooltip label="Close">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label="Close the menu form"
            onClick={() => confirmDiscard(isDirty, onClose, DISCARD_QUESTION)}
          >
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Collapse expanded={isExpanded}>
        <Box p={{ base: 'sm', sm: 'md' }}>
          {total > 0 && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} mb="md" data-testid="menu-form-errors">
              {total === 1 ? 'Fix the marked field to save this menu.' : `Fix the ${total} marked fields to save this menu.`}
            </Alert>
          )}
          <TemplateVariablesProvider value={variables}>
            <Tabs value={tab} onChange={(v) => v && setTab(v as MenuFormTab)} keepMounted={false} styles={{ tab: { paddingInline: 8 } }}>
              <Tabs.List mb="md" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
                {tabs.map((t) => {
                  const count =
                    t === 'media'
                      ? values.attachments.length + (values.inputKind === 'text' ? 0 : 1)
                      : t === 'actions'
                        ? values.actions.length
                        : t === 'validation'
                          ? values.validations.length
                          : t === 'navigation'
                            ? values.alwaysGoto
                              ? 1
                              : values.rules.length
                            : 0;
                  return (
                    <Tabs.Tab
                      key={t}
                      value={t}
                      data-has-errors={counts[t] > 0 || undefined}
                      c={counts[t] > 0 ? 'red.8' : undefined}
                      rightSection={
                        counts[t] > 0 ? (
                          <Badge size="xs" color="red" circle aria-label={`${counts[t]} errors`}>
                            {counts[t]}
                          </Badge>
                        ) : count > 0 ? (
                          <Badge size="xs" variant="light" color="gray" circle>
                            {count}
                          </Badge>
                        ) : undefined
                      }
                    >
                      {TAB_LABELS[t]}
                    </Tabs.Tab>
                  );
                })}
              </Tabs.List>
              <Tabs.Panel value="menu">
                <MenuFieldsTab values={values} set={set} errors={errors} app={app} />
              </Tabs.Panel>
              <Tabs.Panel value="navigation">
                <MenuNavigationTab
                  values={values}
                  set={set}
                  errors={errors}
                  menus={menus}
                  languages={listAppLanguages(app.languages)}
                  channel={app.channel === 'whatsapp' ? 'whatsapp' : 'ussd'}
                  isSubflow={app.isSubflow === true}
                />
              </Tabs.Panel>
              <Tabs.Panel value="actions">
                <MenuActionsTab values={values} set={set} errors={errors} editor={editor} setEditor={setEditor} checkAction={checkAction} />
              </Tabs.Panel>
              <Tabs.Panel value="validation">
                <MenuValidationTab values={values} set={set} errors={errors} />
              </Tabs.Panel>
              {app.channel === 'whatsapp' && (
                <Tabs.Panel value="media">
                  <MenuMediaTab appId={app.appId} values={values} set={set} errors={errors} />
                </Tabs.Panel>
              )}
            </Tabs>
          </TemplateVariablesProvider>
          {/* The menu's own buttons; an open action has its own (Cancel action, Save action or Done) in its panel. */}
          <Group
            justify="flex-end"
            gap="sm"
            mt="lg"
            pt="md"
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            data-testid="menu-form-footer"
          >
            {isActionOpen && (
              <Text size="xs" c="dimmed" mr="auto" data-testid="menu-save-hint">
                {FORM_MESSAGES.actionOpen}
              </Text>
            )}
            <Button variant="default" onClick={() => confirmDiscard(isDirty, onClose, DISCARD_QUESTION)}>
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={isSaving} disabled={isActionOpen}>
              Save
            </Button>
          </Group>
        </Box>
      </Collapse>
    </Paper>
  );
}
