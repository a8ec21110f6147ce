import { Anchor, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import classes from './auth-layout.module.css';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Text under the form, e.g. a link to the other auth screens. */
  footer?: ReactNode;
}

const SELLING_POINTS = [
  'Design menus, validations and actions without a server of your own',
  'Test every screen in the browser emulator before you go live',
  'Collect mobile-money payments and send SMS from your menus',
  'Deploy in Ghana, Nigeria, Kenya, Eswatini and Burundi',
];

/** The split layout of the sign-in screens: a brand panel on wide screens, the form on the right. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className={classes.root}>
      <aside className={classes.brand} aria-label="About Dialflow">
        <Anchor component={Link} to="/" underline="never" aria-label="Dialflow home">
          <BrandLogo size={34} inverted />
        </Anchor>
        <Stack gap="xl">
          <Title order={2} fz={34} lh={1.2} c="white" maw={460}>
            Build USSD apps your customers can dial from any phone.
          </Title>
          <List
            spacing="sm"
            size="md"
            icon={
              <ThemeIcon size={22} radius="xl" color="white" variant="white">
                <IconCheck size={14} color="var(--mantine-color-teal-7)" stroke={3} />
              </ThemeIcon>
            }
            c="teal.0"
          >
            {SELLING_POINTS.map((point) => (
              <List.Item key={point}>{point}</List.Item>
            ))}
          </List>
        </Stack>
        <Group align="flex-end" justify="space-between" wrap="nowrap">
          <div className={classes.phone} aria-hidden="true">
            <div className={classes.screen}>
              {'Welcome to your shop\n1. Buy airtime\n2. Pay a bill\n3. Check balance\n0. Help'}
              <div className={classes.screenInput}>Reply: 1</div>
            </div>
          </div>
          <Text size="xs" c="teal.1" ta="right">
            © {new Date().getFullYear()} Dialflow
          </Text>
        </Group>
      </aside>
      <main className={classes.main}>
        <Group justify="space-between">
          <Anchor component={Link} to="/" underline="never" aria-label="Dialflow home" hiddenFrom="md">
            <BrandLogo size={28} />
          </Anchor>
        </Group>
        <div className={classes.formArea}>
          <Stack className={classes.form} gap="lg">
            <div>
              <Title order={1} fz={28}>
                {title}
              </Title>
              {subtitle && (
                <Text c="dimmed" mt={6}>
                  {subtitle}
                </Text>
              )}
            </div>
            {children}
            {footer && (
              // A div: a footer may hold paragraphs of its own (the login screen's two links).
              <Text component="div" size="sm" c="dimmed" ta="center">
                {footer}
              </Text>
            )}
          </Stack>
        </div>
      </main>
    </div>
  );
}
