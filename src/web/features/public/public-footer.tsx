import { Box, Container, Grid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { DEPLOYMENT_COUNTRIES } from './public.constants';
import { PublicBrandLink } from './public-brand-link';
import classes from './public.module.css';

const COLUMNS = [
  {
    heading: 'Product',
    links: [
      { to: '/pricing', label: 'Pricing' },
      { to: '/pricing#shortcode-pricing', label: 'Shortcode pricing' },
      { to: '/faq', label: 'FAQ' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { to: '/about', label: 'About us' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    heading: 'Account',
    links: [
      { to: '/login', label: 'Log in' },
      { to: '/register', label: 'Create an account' },
    ],
  },
];

export function PublicFooter() {
  return (
    <Box component="footer" className={classes.footer}>
      <Container size="lg" py={56}>
        <Grid gap={40}>
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Stack gap="sm">
              <PublicBrandLink light />
              <Text size="sm" c="inherit" maw={280}>
                USSD apps, mobile-money payments and SMS for businesses across Africa.
              </Text>
            </Stack>
          </Grid.Col>
          {COLUMNS.map((column) => (
            <Grid.Col key={column.heading} span={{ base: 6, sm: 4, md: 3 }}>
              <Stack gap="xs" component="nav" aria-label={column.heading}>
                <Text component="h2" className={classes.footerHeading} m={0} mb={4}>
                  {column.heading}
                </Text>
                {column.links.map((link) => (
                  <Link key={link.to} to={link.to} className={classes.footerLink}>
                    {link.label}
                  </Link>
                ))}
              </Stack>
            </Grid.Col>
          ))}
        </Grid>
        <Box className={classes.footerDivider} mt={40} pt={24}>
          <Text size="sm" c="inherit">
            © {new Date().getFullYear()} Dialflow. Live in {DEPLOYMENT_COUNTRIES.join(', ').replace(/, ([^,]*)$/, ' and $1')}.
          </Text>
        </Box>
      </Container>
    </Box>
  );
}
