import { Badge, Box, Button, Card, Container, Grid, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconCash,
  IconCheck,
  IconDeviceMobile,
  IconMessage2,
  IconPlayerPlay,
  IconRocket,
  IconSitemap,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { DEPLOYMENT_COUNTRIES } from './public.constants';
import { FeaturedTemplateGallery } from './featured-template-gallery';
import { UssdPhoneMock } from './ussd-phone-mock';
import classes from './public.module.css';

const PRODUCTS = [
  {
    name: 'USSD',
    icon: IconDeviceMobile,
    color: 'teal',
    text: 'Design menus, inputs and validations in a visual designer, test every screen in the browser emulator, then connect a shared or dedicated shortcode. Works on every phone, with no data or app install.',
    points: ['Visual menu designer', 'Browser emulator', 'Shared or dedicated shortcodes'],
  },
  {
    name: 'SMS',
    icon: IconMessage2,
    color: 'cyan',
    text: 'Send confirmations, receipts and reminders straight from your menu flows, so customers keep a record of every order and payment. Every plan includes SMS.',
    points: ['Triggered from any menu step', 'Receipts and reminders', 'SMS included in every plan'],
  },
  {
    name: 'PAYMENT',
    icon: IconCash,
    color: 'indigo',
    text: 'Collect mobile-money payments inside the session: the customer picks an option, approves the prompt on their phone, and your app carries on. No card, no website, no waiting.',
    points: ['Mobile money in the session', 'Customer approves on their phone', 'Every payment logged'],
  },
] as const;

const STEPS = [
  {
    icon: IconSitemap,
    title: 'Design your menus',
    text: 'Lay out screens, options and inputs in the designer. Call your APIs, take payments, send SMS.',
  },
  {
    icon: IconPlayerPlay,
    title: 'Test in the emulator',
    text: 'Dial your app in the browser emulator and walk through every path before a customer does.',
  },
  {
    icon: IconRocket,
    title: 'Connect a shortcode and go live',
    text: 'Pick a shortcode like *920*12#, click Deploy, and your app is live within minutes.',
  },
];

function Hero() {
  return (
    <Box component="section" className={classes.hero} aria-labelledby="hero-heading">
      <Container size="lg" className={classes.heroInner}>
        <Grid gap={{ base: 48, md: 64 }} align="center">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="lg">
              <span className={classes.heroEyebrow}>USSD · Mobile money · SMS</span>
              <Title id="hero-heading" order={1} className={classes.heroTitle}>
                Build your USSD app now. <span className={classes.heroAccent}>Collect payments instantly.</span>
              </Title>
              <Text className={classes.heroLead}>
                Dialflow is the fastest way for African businesses to reach customers on any phone: design a USSD menu, take mobile-money
                payments and send SMS, all from one console.
              </Text>
              <Group gap="sm" mt="xs">
                <Button
                  component={Link}
                  to="/register"
                  size="lg"
                  color="teal.3"
                  c="dark.9"
                  w={{ base: '100%', xs: 'auto' }}
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  Get Started
                </Button>
                <Button component={Link} to="/pricing" size="lg" variant="outline" color="gray.0" w={{ base: '100%', xs: 'auto' }}>
                  See pricing
                </Button>
              </Group>
              <Group gap="lg" mt="xs">
                {['Live within minutes', 'Engineers help at no charge'].map((item) => (
                  <Group key={item} gap={6} className={classes.heroCheck}>
                    <IconCheck size={16} aria-hidden="true" color="#63e6be" />
                    <span>{item}</span>
                  </Group>
                ))}
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <UssdPhoneMock />
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}

function Products() {
  return (
    <Box component="section" aria-labelledby="products-heading" py={{ base: 56, sm: 88 }}>
      <Container size="lg">
        <Title id="products-heading" order={2} ta="center" fz={{ base: 28, sm: 36 }}>
          One platform for every customer conversation
        </Title>
        <Text ta="center" c="gray.7" mt="sm" mb={40} size="lg" maw={640} mx="auto">
          Reach the customers who never install an app, get paid on the spot, and keep them informed.
        </Text>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {PRODUCTS.map((product) => (
            <Card key={product.name} withBorder radius="lg" padding="xl" className={classes.featureCard} component="article">
              <ThemeIcon size={48} radius="md" variant="light" color={product.color} aria-hidden="true">
                <product.icon size={26} />
              </ThemeIcon>
              <Title order={3} mt="md" fz="xl" style={{ letterSpacing: '0.04em' }}>
                {product.name}
              </Title>
              <Text c="gray.7" mt="xs">
                {product.text}
              </Text>
              <List mt="md" spacing={6} size="sm" icon={<IconCheck size={16} color="var(--mantine-color-teal-8)" aria-hidden="true" />}>
                {product.points.map((point) => (
                  <List.Item key={point}>{point}</List.Item>
                ))}
              </List>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function HowItWorks() {
  return (
    <Box component="section" aria-labelledby="how-heading" py={{ base: 56, sm: 88 }} className={classes.sectionAlt}>
      <Container size="lg">
        <Title id="how-heading" order={2} ta="center" fz={{ base: 28, sm: 36 }}>
          How it works
        </Title>
        <Text ta="center" c="gray.7" mt="sm" mb={40} size="lg">
          From idea to a live shortcode in three steps.
        </Text>
        <SimpleGrid
          cols={{ base: 1, md: 3 }}
          spacing={{ base: 'xl', md: 40 }}
          component="ol"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {STEPS.map((step, index) => (
            <Stack key={step.title} component="li" gap="sm">
              <Group gap="sm">
                <span className={classes.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <step.icon size={22} color="var(--mantine-color-teal-8)" aria-hidden="true" />
              </Group>
              <Title order={3} fz="lg">
                {step.title}
              </Title>
              <Text c="gray.7">{step.text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Group justify="center" gap="xs" mt={48}>
          <Text fw={600} size="sm" c="gray.8">
            Deploy in
          </Text>
          {DEPLOYMENT_COUNTRIES.map((country) => (
            <Badge key={country} variant="outline" color="gray.7" size="lg" radius="sm" tt="none" fw={500}>
              {country}
            </Badge>
          ))}
        </Group>
      </Container>
    </Box>
  );
}

function ClosingCall() {
  return (
    <Box component="section" aria-labelledby="cta-heading" py={{ base: 56, sm: 88 }}>
      <Container size="lg">
        <Box className={classes.ctaBand} p={{ base: 32, sm: 56 }}>
          <Group justify="space-between" align="center" gap="xl">
            <Stack gap="xs" maw={560}>
              <Title id="cta-heading" order={2} c="white" fz={{ base: 26, sm: 32 }}>
                Your customers are one dial away.
              </Title>
              <Text c="rgba(255,255,255,0.82)" size="lg">
                Create an account, build your first menu today, and talk to our engineers whenever you need a hand.
              </Text>
            </Stack>
            <Group gap="sm">
              <Button component={Link} to="/register" size="lg" color="teal.3" c="dark.9" w={{ base: '100%', xs: 'auto' }}>
                Create your account
              </Button>
              <Button component={Link} to="/contact" size="lg" variant="outline" color="gray.0" w={{ base: '100%', xs: 'auto' }}>
                Talk to us
              </Button>
            </Group>
          </Group>
        </Box>
      </Container>
    </Box>
  );
}

export function HomePage() {
  return (
    <>
      <title>Dialflow: build USSD apps, collect mobile-money payments, send SMS</title>
      <Hero />
      <Products />
      <HowItWorks />
      <FeaturedTemplateGallery />
      <ClosingCall />
    </>
  );
}
