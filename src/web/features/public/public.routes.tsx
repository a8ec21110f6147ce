import type { RouteObject } from 'react-router';
import { AboutPage } from './about-page';
import { ContactPage } from './contact-page';
import { FaqPage } from './faq-page';
import { HomePage } from './home-page';
import { PricingPage } from './pricing-page';
import { PublicLayout } from './public-layout';

/** The public routes: /, /faq, /pricing, /about, /contact, all inside the public header and footer. */
export const publicRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'faq', element: <FaqPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'pricing', element: <PricingPage /> },
    ],
  },
];
