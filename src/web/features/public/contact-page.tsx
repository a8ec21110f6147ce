import { Anchor, Card, Container, Grid, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClock, IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { ContactSendForm } from './contact-send-form';
import { OFFICES, type Office } from './offices.data';
import { PublicPageHeader } from './public-page-header';

function OfficeCard({ office }: { office: Office }) {
  const rows = [
    {
      icon: IconMapPin,
      label: 'Address',
      content: office.addressLines.map((line) => (
        <span key={line} style={{ display: 'block' }}>
          {line}
        </span>
      )),
    },
    {
      icon: IconPhone,
      label: 'Phone',
      content: (
        <Anchor href={`tel:${office.phone.replace(/\s/g, '')}`} c="teal.9">
          {office.phone}
        </Anchor>
      ),
    },
    {
      icon: IconMail,
      label: 'Email',
      content: (
        <Anchor href={`mailto:${office.email}`} c="teal.9">
          {office.email}
        </Anchor>
      ),
    },
    { icon: IconClock, label: 'Hours', content: office.hours },
  ];
  return (
    <Card withBorder radius="lg" padding="lg" component="article" aria-labelledby={`office-${office.country}`}>
      <Title order={3} fz="lg" id={`office-${office.country}`}>
        {office.country} office{' '}
        <Text span c="gray.7" fw={400}>
          · {office.city}
        </Text>
      </Title>
      <Stack gap="sm" mt="md">
        {rows.map((row) => (
          <Group key={row.label} gap="sm" align="flex-start" wrap="nowrap">
            <ThemeIcon variant="light" color="teal" size={32} radius="md" aria-hidden="true">
              <row.icon size={18} />
            </ThemeIcon>
            <div>
              <Text size="xs" c="gray.7" fw={600} tt="uppercase">
                {row.label}
              </Text>
              <Text size="sm" c="gray.9" component="div">
                {row.content}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

export function ContactPage() {
  const [params] = useSearchParams();
  return (
    <>
      <title>Contact · Dialflow</title>
      <PublicPageHeader
        eyebrow="Contact"
        title="Talk to the Dialflow team"
        lead="Questions about building your app, shortcodes, pricing or self-hosting? Send us a message and we will get back to you shortly."
      />
      <Container size="lg" py={{ base: 40, sm: 64 }}>
        <Grid gap={{ base: 40, md: 56 }}>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Card withBorder radius="lg" padding="xl" component="section" aria-labelledby="contact-form-heading">
              <Title order={2} fz="xl" id="contact-form-heading">
                Send us a message
              </Title>
              <Text c="gray.7" size="sm" mt={4} mb="lg">
                Fields marked * are required.
              </Text>
              <ContactSendForm layout="page" idPrefix="contact" initialSubject={params.get('subject') ?? ''} />
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="lg" component="section" aria-labelledby="offices-heading">
              <Title order={2} fz="xl" id="offices-heading">
                Our offices
              </Title>
              {OFFICES.map((office) => (
                <OfficeCard key={office.country} office={office} />
              ))}
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
    </>
  );
}
