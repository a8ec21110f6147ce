/** The five FAQ answers (docs/product.md, Public pages), phrased for visitors. */
export interface FaqEntry {
  question: string;
  answer: string;
  /** Optional follow-up link shown under the answer. */
  link?: { to: string; label: string };
}

export const FAQ_ENTRIES: FaqEntry[] = [
  {
    question: 'How long does it take for my USSD app to go live?',
    answer: 'Your app is ready within minutes of clicking Deploy. There is no server to set up and nothing to install.',
  },
  {
    question: 'Can I build complex menus, and will someone help me?',
    answer:
      'Yes. Complex, multi-level menus with inputs, validations, API calls and payments are supported, and our engineers will help you build your app at no charge.',
  },
  {
    question: 'Can I host Dialflow on my own servers?',
    answer: 'Yes. Send us your contact details and we will get back to you with a quote for self-hosting.',
    link: { to: '/contact?subject=Self-hosting%20quote', label: 'Request a self-hosting quote' },
  },
  {
    question: 'Which countries can I deploy my app in?',
    answer: 'You can deploy in Ghana, Nigeria, Kenya, Eswatini and Burundi.',
  },
  {
    question: 'Can I use my own payment provider?',
    answer:
      'It is possible: your menu can call your provider through a REST API call. We advise against it, though: the built-in mobile-money payments are already wired into the session, so you have less to build, test and maintain.',
  },
];
