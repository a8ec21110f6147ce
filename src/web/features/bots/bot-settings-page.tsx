import { Stack, Tabs } from '@mantine/core';
import { IconAdjustments, IconBrandWhatsapp, IconTemplate } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { BotScreenHeader } from './bot-screen-header';
import { BotSettingsPanel } from './bot-settings-form';
import { LinkedNumberPanel } from './linked-number-panel';
import { TemplatePanel } from './template-panel';

type SettingsTab = 'numbers' | 'templates' | 'settings';
const TABS: readonly SettingsTab[] = ['numbers', 'templates', 'settings'];

/** Bot Settings (/whatsapp-bot/settings/{appId}): tabs Connected Numbers, Templates and Bot Settings (`?tab=templates`, `?tab=settings`). */
export function BotSettingsPage() {
  const { appId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get('tab') as SettingsTab | null;
  const tab: SettingsTab = asked && TABS.includes(asked) ? asked : 'numbers';
  return (
    <Stack gap="xl">
      <title>Bot Settings · Dialflow</title>
      <BotScreenHeader appId={appId} screen="Bot Settings" />
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value && value !== 'numbers' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List aria-label="Bot Settings">
          <Tabs.Tab value="numbers" leftSection={<IconBrandWhatsapp size={16} />}>
            Connected Numbers
          </Tabs.Tab>
          <Tabs.Tab value="templates" leftSection={<IconTemplate size={16} />}>
            Templates
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconAdjustments size={16} />}>
            Bot Settings
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="numbers" pt="lg">
          <LinkedNumberPanel appId={appId} />
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="lg">
          <TemplatePanel appId={appId} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="lg">
          <BotSettingsPanel appId={appId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
