/** Office details shown on the contact page (a Ghana office and a Nigeria office). */
export interface Office {
  country: string;
  city: string;
  addressLines: string[];
  phone: string;
  email: string;
  hours: string;
}

export const OFFICES: Office[] = [
  {
    country: 'Ghana',
    city: 'Accra',
    addressLines: ['3rd Floor, 14 Kofi Annan Street', 'Airport Residential Area', 'Accra, Ghana'],
    phone: '+233 30 290 4410',
    email: 'accra@dialflow.com',
    hours: 'Mon to Fri, 8:30 to 17:30 GMT',
  },
  {
    country: 'Nigeria',
    city: 'Lagos',
    addressLines: ['2nd Floor, 27 Admiralty Way', 'Lekki Phase 1', 'Lagos, Nigeria'],
    phone: '+234 201 330 8820',
    email: 'lagos@dialflow.com',
    hours: 'Mon to Fri, 9:00 to 18:00 WAT',
  },
];
