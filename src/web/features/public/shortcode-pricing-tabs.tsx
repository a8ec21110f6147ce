import { type ReactNode, useState } from 'react';
import { Badge, Button, Card, Group, type MantineColor, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBuildingBroadcastTower, IconClockHour4, IconUsersGroup, IconWorld } from '@tabler/icons-react';
import {
  DEDICATED_SHORTCODE,
  OTHER_COUNTRY,
  PROVISIONING_NOTE,
  SHARED_SHORTCODE,
  PRICING_COUNTRIES,
  formatMoney,
  shortcodeEnquirySubject,
  type PricingCountry,
  type ShortcodeKind,
} from './pricing.data';
import { ShortcodeEnquiryModal } from './shortcode-enquiry-modal';
import classes from './public.module.css';

const OTHERS_TAB = 'OTHERS';

function PriceRow({ label, value }: { label: string; value: string }) {
  return (
    <div className={classes.priceRow}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={700} c="gray.9">
        {value}
      </Text>
    </div>
  );
}

function ProvisioningNote() {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <IconClockHour4 size={16} color="var(--mantine-color-teal-8)" aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="sm" c="gray.7">
        {PROVISIONING_NOTE}
      </Text>
    </Group>
  );
}

interface OfferCardProps {
  /** The card's heading's id, so the article is named by it. */
  headingId: string;
  title: string;
  subtitle: string;
  icon: ReactNode;
  color: MantineColor;
  /** The formats or networks, as badges. */
  badges: ReactNode;
  prices: ReactNode;
  /** A line below the prices, before the provisioning note. */
  footnote?: ReactNode;
  talkLabel: string;
  onTalk: () => void;
}

/** One kind of shortcode for one country: what it is, its prices, and Talk to us. */
function OfferCard({ headingId, title, subtitle, icon, color, badges, prices, footnote, talkLabel, onTalk }: OfferCardProps) {
  return (
    <Card withBorder radius="lg" padding="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="md" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden="true">
            {icon}
          </ThemeIcon>
          <div>
            <Title order={3} fz="lg" id={headingId}>
              {title}
            </Title>
            <Text size="sm" c="gray.7">
              {subtitle}
            </Text>
          </div>
        </Group>
        {badges}
        <div>{prices}</div>
        {footnote}
        <ProvisioningNote />
        <Button color="teal.9" onClick={onTalk} mt="auto" aria-label={talkLabel}>
          Talk to us
        </Button>
      </Stack>
    </Card>
  );
}

function SharedShortcodeCard({ country, onTalk }: { country: PricingCountry; onTalk: () => void }) {
  return (
    <OfferCard
      headingId={`shared-${country.name}`}
      title="Shared Shortcode"
      subtitle="Your own extension on a shared code"
      icon={<IconUsersGroup size={22} />}
      color="teal"
      badges={
        <Group gap="xs">
          {SHARED_SHORTCODE.formats.map((format) => (
            <Badge key={format} variant="light" color="teal" size="lg" radius="sm" tt="none" ff="monospace" fw={700}>
              {format}
            </Badge>
          ))}
        </Group>
      }
      prices={
        <>
          <PriceRow label="Per-session cost" value={formatMoney(country.currency, SHARED_SHORTCODE.sessionCost)} />
          {SHARED_SHORTCODE.setup.map((row) => (
            <PriceRow key={row.period} label={`Setup, ${row.period}`} value={formatMoney(country.currency, row.price)} />
          ))}
        </>
      }
      talkLabel={`Talk to us about a Shared Shortcode for ${country.name}`}
      onTalk={onTalk}
    />
  );
}

function DedicatedShortcodeCard({ country, onTalk }: { country: PricingCountry; onTalk: () => void }) {
  return (
    <OfferCard
      headingId={`dedicated-${country.name}`}
      title="Dedicated Shortcode"
      subtitle="A shortcode that is yours alone, priced per network"
      icon={<IconBuildingBroadcastTower size={22} />}
      color="indigo"
      badges={
        <Group gap="xs" aria-label="Networks">
          {DEDICATED_SHORTCODE.networks.map((network) => (
            <Badge key={network} variant="outline" color="gray.7" size="lg" radius="sm">
              {network}
            </Badge>
          ))}
        </Group>
      }
      prices={
        <>
          <PriceRow label="Setup, 1 year" value={formatMoney(country.currency, DEDICATED_SHORTCODE.setupOneYear)} />
          <PriceRow label="Session cost" value={formatMoney(country.currency, DEDICATED_SHORTCODE.sessionCost)} />
          <PriceRow label="Monthly maintenance" value={formatMoney(country.currency, DEDICATED_SHORTCODE.monthlyMaintenance)} />
        </>
      }
      footnote={
        <Text size="xs" c="gray.7">
          Prices per network, in {country.currency}.
        </Text>
      }
      talkLabel={`Talk to us about a Dedicated Shortcode for ${country.name}`}
      onTalk={onTalk}
    />
  );
}

function OtherCountriesPanel({ onTalk }: { onTalk: () => void }) {
  return (
    <Card withBorder radius="lg" padding="xl" component="article" aria-labelledby="others-heading">
      <Group gap="md" align="flex-start" wrap="nowrap">
        <ThemeIcon variant="light" color="teal" size={48} radius="md" aria-hidden="true">
          <IconWorld size={26} />
        </ThemeIcon>
        <Stack gap="sm">
          <Title order={3} fz="lg" id="others-heading">
            Launching somewhere else?
          </Title>
          <Text c="gray.7" maw={560}>
            We cover other countries too. Tell us where your customers are and we will come back with shared and dedicated shortcode options
            and prices for that market.
          </Text>
          <ProvisioningNote />
          <Group>
            <Button color="teal.9" onClick={onTalk} aria-label="Talk to us about a shortcode in another country">
              Talk to us
            </Button>
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

/** Public shortcode pricing. Vertical country tabs (Ghana first) with a Talk to us modal per card. */
export function ShortcodePricingTabs() {
  const isWide = useMediaQuery('(min-width: 48em)', true);
  const [enquiry, setEnquiry] = useState({ opened: false, subject: '', openCount: 0 });
  const openEnquiry = (kind: ShortcodeKind, country: string) =>
    setEnquiry((current) => ({ opened: true, subject: shortcodeEnquirySubject(kind, country), openCount: current.openCount + 1 }));

  return (
    <>
      <Tabs
        defaultValue={PRICING_COUNTRIES[0].name}
        orientation={isWide ? 'vertical' : 'horizontal'}
        variant="pills"
        color="teal.9"
        radius="md"
        className={classes.shortcodeTabs}
      >
        <Tabs.List aria-label="Country" mr={isWide ? 'xl' : 0} mb={isWide ? 0 : 'lg'} miw={isWide ? 160 : undefined}>
          {PRICING_COUNTRIES.map((country) => (
            <Tabs.Tab key={country.name} value={country.name} fz="md" fw={500}>
              {country.name}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value={OTHERS_TAB} fz="md" fw={500}>
            OTHERS
          </Tabs.Tab>
        </Tabs.List>

        {PRICING_COUNTRIES.map((country) => (
          <Tabs.Panel key={country.name} value={country.name} style={{ flex: 1, minWidth: 0 }}>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <SharedShortcodeCard country={country} onTalk={() => openEnquiry('Shared', country.name)} />
              <DedicatedShortcodeCard country={country} onTalk={() => openEnquiry('Dedicated', country.name)} />
            </SimpleGrid>
          </Tabs.Panel>
        ))}
        <Tabs.Panel value={OTHERS_TAB} style={{ flex: 1, minWidth: 0 }}>
          <OtherCountriesPanel onTalk={() => openEnquiry('Shared', OTHER_COUNTRY)} />
        </Tabs.Panel>
      </Tabs>

      <ShortcodeEnquiryModal
        opened={enquiry.opened}
        subject={enquiry.subject}
        openCount={enquiry.openCount}
        onClose={() => setEnquiry((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
