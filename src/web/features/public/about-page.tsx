import { Box, Button, Container, Grid, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCloud, IconHeartHandshake, IconMapPin, IconPhone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DEPLOYMENT_COUNTRIES } from './public.constants';
import { PublicPageHeader } from './public-page-header';
import classes from './public.module.css';

const PRINCIPLES = [
  {
    icon: IconPhone,
    title: 'Every phone counts',
    text: 'USSD works on any handset, with no data and no app store. That is where most of your customers already are.',
  },
  {
    icon: IconCloud,
    title: 'Cloud, not servers',
    text: 'We run the gateways, the sessions and the scaling. You design the menus and your app is live within minutes of deploying.',
  },
  {
    icon: IconHeartHandshake,
    title: 'Engineers who help',
    text: 'Complex menus are welcome. Our engineers help you build them at no charge, because your launch is our launch.',
  },
  {
    icon: IconMapPin,
    title: 'Built where we work',
    text: `Our teams in Ghana and Nigeria build for the networks and mobile-money services our customers use every day.`,
  },
];

export function AboutPage() {
  return (
    <>
      <title>About · Dialflow</title>
      <PublicPageHeader
        eyebrow="About us"
        title="The USSD cloud for African businesses"
        lead="Dialflow is a USSD cloud solution owned by a software company. We give businesses everything they need to reach customers on any phone: menus, payments and SMS, hosted and ready."
      />

      <Container size="lg" py={{ base: 48, sm: 72 }}>
        <Grid gap={48}>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Title order={2} fz={{ base: 26, sm: 32 }}>
              What we do
            </Title>
            <Stack gap="md" mt="md">
              <Text c="gray.8" lh={1.7}>
                A bank wants balance checks on <strong>*920*12#</strong>. A school wants fees paid by mobile money. A co-operative wants
                farmers to register from a basic phone. Each of them needs a USSD app, and until now each of them needed a development team,
                a server and months of telecom paperwork.
              </Text>
              <Text c="gray.8" lh={1.7}>
                Dialflow turns that into an afternoon. You design your menus in the browser, test them in the emulator, connect a shared or
                dedicated shortcode and deploy. We host the sessions, talk to the mobile networks and payment providers, and keep your app
                running.
              </Text>
              <Text c="gray.8" lh={1.7}>
                Dialflow is built and operated by a software company, so the same engineers who write the platform are the ones who help you
                ship your app.
              </Text>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              {PRINCIPLES.map((item) => (
                <Box
                  key={item.title}
                  p="lg"
                  style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-lg)' }}
                >
                  <ThemeIcon variant="light" color="teal" size={40} radius="md" aria-hidden="true">
                    <item.icon size={22} />
                  </ThemeIcon>
                  <Title order={3} fz="md" mt="sm">
                    {item.title}
                  </Title>
                  <Text size="sm" c="gray.7" mt={6} lh={1.6}>
                    {item.text}
                  </Text>
                </Box>
              ))}
            </SimpleGrid>
          </Grid.Col>
        </Grid>
      </Container>

      <Box className={classes.sectionAlt} py={{ base: 48, sm: 64 }}>
        <Container size="lg">
          <Group justify="space-between" gap="xl">
            <Stack gap={6} maw={620}>
              <Title order={2} fz={{ base: 24, sm: 28 }}>
                Live in {DEPLOYMENT_COUNTRIES.length} countries, and growing
              </Title>
              <Text c="gray.7">{DEPLOYMENT_COUNTRIES.join(' · ')}</Text>
            </Stack>
            <Group gap="sm">
              <Button component={Link} to="/register" color="teal.9" size="md">
                Get Started
              </Button>
              <Button component={Link} to="/contact" variant="default" size="md">
                Contact us
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>
    </>
  );
}
