import { ActionIcon, Badge, Button, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { AppChannel } from '../../../shared/app/app-version.schema';
import type { App } from '../../../shared/api/apps.schema';
import { DEFAULT_SCREEN_LIMIT, type AppLanguages, type AppVersion, type Menu } from '../../../shared/app';
import { WHATSAPP_LIMITS } from '../../../shared/whatsapp';
import { designScreenLimit, GATEWAY_PROFILES, type GatewayConnection } from '../../../shared/gateway-profiles';
import { compileApp, previewMenu } from '../../../engine';
import { describeNonGsm, measureScreen, type ScreenMeasure } from '../../../shared/ussd-encoding';
import { ChatBubble } from '../bots/chat-bubble';
import chatClasses from '../bots/chat.module.css';
import classes from './menus.module.css';
import { useTemplateVariables } from './template-text-input';

/** Sample caller for the preview. */
const SAMPLE_MOBILE = '233244000111';
const SAMPLE_NETWORK = 'MTN';
const PREVIEW_ID = 'preview';

export interface PreviewApp {
  appId: string;
  appName: string;
  shortCode: string;
  screenLimit?: number;
  /** The gateways the app is connected to: the preview holds a screen to the strictest (designScreenLimit). */
  gatewayConnections?: readonly GatewayConnection[];
  /** A bot's screens are WhatsApp messages: a bubble, and a message's limit instead of the USSD screen's. */
  channel?: AppChannel;
  /** The app's languages: the preview can show each (docs/languages.md). */
  languages?: AppLanguages | null;
  /** The app's saved menus: the variables its templates can read (the designer suggests them, the preview samples them). */
  menus?: ReadonlyArray<Pick<Menu, 'uniqueId' | 'userDefinedName' | 'actions' | 'inputKind'>>;
  /** A sub-flow's menus may Return (docs/sub-flows.md). */
  isSubflow?: true;
}

/** What the preview reads of an app (the designer's and the flow map's editors); a bare one while the app loads. */
export function toPreviewApp(appId: string, app: App | undefined, menus: PreviewApp['menus']): PreviewApp {
  if (!app) return { appId, appName: '', shortCode: '' };
  return {
    appId: app.appId,
    appName: app.appName,
    shortCode: app.shortCode,
    screenLimit: app.screenLimit,
    gatewayConnections: app.gatewayConnections,
    channel: app.channel,
    languages: app.languages,
    menus,
    ...(app.isSubflow ? { isSubflow: true as const } : {}),
  };
}

type PreviewMenu = Pick<Menu, 'headerText' | 'displayText' | 'footerText' | 'terminate' | 'inputHolder' | 'translations'>;

/**
 * `session.inputs.amount` and `session.inputs.amountLabel` in a menu's texts, in order of appearance; only in a
 * closed tag, so a name still being typed (`{{ session.inputs.am`) is not one.
 */
export function findSampleInputs(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/session\.inputs\.([A-Za-z_$][\w$]*)(?=[^{}]*[}%]\})/g)) names.add(match[1]!);
  return [...names];
}

/** Renders one menu with the engine's real rendering and pagination, over sample values. */
export function renderMenuPreview(app: PreviewApp, menu: PreviewMenu, inputs: Record<string, string>, limit: number, language?: string) {
  const version = (screenLimit: number): AppVersion => ({
    appId: app.appId,
    versionId: PREVIEW_ID,
    appName: app.appName,
    shortCode: app.shortCode,
    useTemplateTag: false,
    screenLimit,
    channel: 'ussd',
    menus: [
      {
        uniqueId: PREVIEW_ID,
        appId: app.appId,
        isFirst: true,
        displayText: menu.displayText,
        headerText: menu.headerText,
        footerText: menu.footerText,
        userDefinedName: PREVIEW_ID,
        inputHolder: menu.inputHolder,
        allowGoBack: false,
        goBackInputIndicator: '',
        terminate: menu.terminate,
        parentMenuId: null,
        switchOperations: [],
        actions: [],
        inputValidations: [],
        ...(menu.translations ? { translations: menu.translations } : {}),
      },
    ],
    ...(app.languages ? { languages: app.languages } : {}),
  });
  const sample = { inputs, mobile: SAMPLE_MOBILE, network: SAMPLE_NETWORK, language };
  // The whole screen (no page limit) gives the count; the app's limit gives the pages users see.
  const whole = previewMenu(compileApp(version(Number.MAX_SAFE_INTEGER)), PREVIEW_ID, sample);
  const paged = previewMenu(compileApp(version(limit)), PREVIEW_ID, sample);
  if (!whole.ok) return { ok: false as const, error: whole.error };
  if (!paged.ok) return { ok: false as const, error: paged.error };
  const screen = whole.pages[0] ?? '';
  // A USSD screen is counted as the network carries it (GSM-7 septets, or UCS-2 at a smaller limit); a bot's message
  // in UTF-16 units.
  const measure = app.channel === 'whatsapp' ? null : measureScreen(screen, limit);
  return { ok: true as const, length: measure?.length ?? screen.length, measure, pages: paged.pages };
}

/**
 * Why a USSD screen holds fewer characters: the letters that send it as UCS-2, and GSM look-alikes for them, which the
 * builder may put in with one click (the words change, so it is offered, never done for them).
 */
function EncodingNote({
  measure,
  appLimit,
  onApply,
}: {
  measure: ScreenMeasure;
  appLimit: number;
  onApply?: (lookAlikes: Record<string, string>) => void;
}) {
  if (measure.encoding !== 'UCS-2') return null;
  const { because, swaps } = describeNonGsm(measure);
  return (
    <Stack gap={4} align="flex-start">
      <Text size="xs" c="dimmed" data-testid="menu-encoding" style={{ overflowWrap: 'anywhere' }}>
        {`Sent as UCS-2 because of ${because}: ${measure.limit} characters a screen, not ${appLimit}.`}
        {swaps && ` GSM look-alikes: ${swaps}.`}
      </Text>
      {swaps && onApply && (
        <Button size="compact-xs" variant="light" data-testid="menu-apply-look-alikes" onClick={() => onApply(measure.lookAlikes)}>
          Use GSM look-alikes
        </Button>
      )}
    </Stack>
  );
}

/** The live phone preview of the menu being edited, and its character count against the app's screen limit. */
export function MenuScreenPreview({
  app,
  menu,
  language,
  onApplyLookAlikes,
}: {
  app: PreviewApp;
  menu: PreviewMenu;
  language?: string;
  /** Puts the offered GSM look-alikes into the shown language's texts (the designer's form); absent, none is offered. */
  onApplyLookAlikes?: (lookAlikes: Record<string, string>) => void;
}) {
  const isBot = app.channel === 'whatsapp';
  const design = designScreenLimit(app.screenLimit ?? DEFAULT_SCREEN_LIMIT, app.gatewayConnections ?? []);
  const limit = isBot ? WHATSAPP_LIMITS.text : design.limit;
  const narrowedBy = isBot || !design.gateway ? null : GATEWAY_PROFILES[design.gateway].label;
  const t = language ? menu.translations?.[language] : undefined;
  const typedNames = findSampleInputs([
    t?.headerText || menu.headerText,
    t?.displayText || menu.displayText,
    t?.footerText || menu.footerText,
  ]);
  // A sample only for an input some menu gives: one that no menu gives shows as nothing in a session too (the deploy warns).
  const variables = useTemplateVariables();
  const sampleNames = typedNames.filter((n) => variables.some((v) => v.path === `session.inputs.${n}`));
  const unknownNames = typedNames.filter((n) => !sampleNames.includes(n));
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [page, setPage] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names as one string: a new array with the same names keeps the inputs
  const inputs = useMemo(() => Object.fromEntries(sampleNames.map((n) => [n, samples[n] ?? ''])), [sampleNames.join(','), samples]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu's rendered fields, not the object (a new one comes with every keystroke elsewhere in the form)
  const result = useMemo(
    () => renderMenuPreview(app, menu, inputs, limit, language),
    [app, menu.headerText, menu.displayText, menu.footerText, menu.terminate, menu.inputHolder, menu.translations, inputs, limit, language],
  );
  const pages = result.ok ? result.pages : [];
  const current = Math.min(page, Math.max(pages.length - 1, 0));
  // The limit the screen is held to: the encoding's on USSD (70 for a 160 screen in UCS-2), the message's in a bot.
  const shownLimit = result.ok && result.measure ? result.measure.limit : limit;
  const isOver = result.ok && result.length > shownLimit;
  const isEmpty = result.ok && result.length === 0;

  return (
    <Stack gap="sm" data-testid="menu-preview" aria-label="Screen preview">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Preview
        </Text>
        {result.ok && (
          <Badge color={isOver ? 'red' : 'teal'} variant={isOver ? 'filled' : 'light'} data-testid="menu-char-count" data-over={isOver}>
            {result.length} / {shownLimit} characters{result.measure?.encoding === 'UCS-2' ? ' · UCS-2' : ''}
          </Badge>
        )}
      </Group>
      {result.ok && (
        <Progress
          value={Math.min((result.length / shownLimit) * 100, 100)}
          color={isOver ? 'red' : 'teal'}
          size="xs"
          aria-label="Characters used"
        />
      )}
      {narrowedBy && (
        <Text size="xs" c="dimmed" data-testid="menu-limit-gateway">
          {`${narrowedBy} carries ${limit} characters a screen: the strictest gateway this app is connected to.`}
        </Text>
      )}
      {result.ok && result.measure && <EncodingNote measure={result.measure} appLimit={limit} onApply={onApplyLookAlikes} />}
      {isBot ? (
        <div className={chatClasses.preview}>
          {result.ok ? (
            isEmpty ? (
              <Text size="sm" c="gray.7" ta="center">
                Type the menu text to see the message
              </Text>
            ) : (
              <div data-testid="menu-preview-text">
                <ChatBubble
                  entry={{ direction: 'out', message: { type: 'text', text: pages[current] ?? '' }, at: '' }}
                  botName={app.appName}
                />
              </div>
            )
          ) : (
            <Text size="xs" c="red.8" data-testid="menu-preview-error">
              {result.error}
            </Text>
          )}
          <Text size="xs" c="gray.7" mt="xs">
            As a linked device shows it. On the Cloud API, numbered options come as buttons (up to 3) or a list (up to 10).
          </Text>
        </div>
      ) : (
        <div className={classes.phone}>
          <div className={classes.phoneScreen}>
            <div className={classes.dialog}>
              {result.ok ? (
                <pre className={classes.dialogText} data-testid="menu-preview-text">
                  {isEmpty ? (
                    <span style={{ color: 'var(--mantine-color-placeholder)' }}>Type the menu text to see the screen</span>
                  ) : (
                    pages[current]
                  )}
                </pre>
              ) : (
                <Text size="xs" c="red.8" data-testid="menu-preview-error">
                  {result.error}
                </Text>
              )}
              {!menu.terminate && (
                <div className={classes.dialogInput}>{(language && menu.translations?.[language]?.inputHolder) || menu.inputHolder}</div>
              )}
              <div className={classes.dialogButtons}>
                {menu.terminate ? (
                  <span>OK</span>
                ) : (
                  <>
                    <span>Cancel</span>
                    <span>Send</span>
                  </>
                )}
              </div>
            </div>
          </div>
        </div>
      )}
      {pages.length > 1 && (
        <Group justify="center" gap={6}>
          <ActionIcon variant="default" size="sm" aria-label="Previous page" disabled={current === 0} onClick={() => setPage(current - 1)}>
            <IconChevronLeft size={14} />
          </ActionIcon>
          <Text size="xs" c="dimmed">
            Page {current + 1} of {pages.length}
          </Text>
          <ActionIcon
            variant="default"
            size="sm"
            aria-label="Next page"
            disabled={current === pages.length - 1}
            onClick={() => setPage(current + 1)}
          >
            <IconChevronRight size={14} />
          </ActionIcon>
        </Group>
      )}
      {isOver && (
        <Text size="xs" c="red.8">
          {menu.terminate
            ? `Over the ${limit}-character ${isBot ? 'message' : 'screen'}: an ending ${isBot ? 'message' : 'screen'} cannot page, so the text will be cut.`
            : `Over the ${limit}-character ${isBot ? 'message' : 'screen'}: ${isBot ? 'customers' : 'callers'} see ${pages.length} pages, each ending in "98. More".`}
        </Text>
      )}
      {unknownNames.length > 0 && (
        <Text size="xs" c="orange.9" data-testid="menu-preview-unknown">
          {unknownNames.map((n) => `session.inputs.${n}`).join(', ')} {unknownNames.length === 1 ? 'matches' : 'match'} no menu identifier
          and
          {unknownNames.length === 1 ? ' shows' : ' show'} as nothing. Name the menu that asks for it{' '}
          {unknownNames.length === 1 ? `"${unknownNames[0]}"` : 'by the name used'}, or type {'{{'} to pick a variable that exists.
        </Text>
      )}
      {sampleNames.length > 0 && (
        <Stack gap={6}>
          <Text size="xs" c="dimmed">
            Sample values
          </Text>
          {sampleNames.map((name) => (
            <TextInput
              key={name}
              size="xs"
              label={`session.inputs.${name}`}
              value={samples[name] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setSamples((s) => ({ ...s, [name]: value }));
              }}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
