/** One mobile network: its code (MCC + MNC, as gateways such as Africa's Talking send it) and the brand callers know. */
export interface MobileNetwork {
  /** MCC (3 digits) then MNC (2 or 3 digits): `62001`. */
  code: string;
  name: string;
  country: string;
  /** The brand the network had before, when it changed recently (so an old export still makes sense). */
  formerly?: string;
}

/**
 * The operating mobile networks of the countries our gateways serve (West, East and Southern Africa).
 *
 * Source: the public list of mobile network codes kept on Wikipedia ("Mobile Network Codes in ITU region 6xx
 * (Africa)", ITU-T E.212), as packaged by the mcc-mnc-list project (github.com/pbakondy/mcc-mnc-list, April 2023
 * snapshot), operational networks only. Changed since that snapshot: Vodafone Ghana became Telecel (March
 * 2024), AirtelTigo became AT (2022), Tigo Tanzania became Yas (November 2024); 63601 is Ethio Telecom (the
 * snapshot's brand column said MTN). To add a network, add a row: nothing else needs to change.
 */
export const MOBILE_NETWORKS: readonly MobileNetwork[] = [
  // Ghana (620)
  { code: '62001', name: 'MTN', country: 'Ghana' },
  { code: '62002', name: 'Telecel', country: 'Ghana', formerly: 'Vodafone' },
  { code: '62003', name: 'AT', country: 'Ghana', formerly: 'AirtelTigo' },
  { code: '62004', name: 'Expresso', country: 'Ghana' },
  { code: '62006', name: 'AT', country: 'Ghana', formerly: 'AirtelTigo' },
  { code: '62007', name: 'Glo', country: 'Ghana' },
  { code: '62010', name: 'Blu', country: 'Ghana' },
  { code: '62014', name: 'Busy', country: 'Ghana' },
  { code: '62015', name: 'Lebara', country: 'Ghana' },
  { code: '62016', name: 'Telesol', country: 'Ghana' },
  // Nigeria (621)
  { code: '62120', name: 'Airtel', country: 'Nigeria' },
  { code: '62122', name: 'InterC', country: 'Nigeria' },
  { code: '62124', name: 'Spectranet', country: 'Nigeria' },
  { code: '62126', name: 'Swift', country: 'Nigeria' },
  { code: '62127', name: 'Smile', country: 'Nigeria' },
  { code: '62130', name: 'MTN', country: 'Nigeria' },
  { code: '62140', name: 'Ntel', country: 'Nigeria' },
  { code: '62150', name: 'Glo', country: 'Nigeria' },
  { code: '62160', name: '9mobile', country: 'Nigeria' },
  // Kenya (639)
  { code: '63901', name: 'Safaricom', country: 'Kenya' },
  { code: '63902', name: 'Safaricom', country: 'Kenya' },
  { code: '63903', name: 'Airtel', country: 'Kenya' },
  { code: '63905', name: 'Airtel', country: 'Kenya' },
  { code: '63907', name: 'Telkom', country: 'Kenya' },
  { code: '63910', name: 'Faiba', country: 'Kenya' },
  // Tanzania (640)
  { code: '64002', name: 'Yas', country: 'Tanzania', formerly: 'Tigo' },
  { code: '64003', name: 'Zantel', country: 'Tanzania' },
  { code: '64004', name: 'Vodacom', country: 'Tanzania' },
  { code: '64005', name: 'Airtel', country: 'Tanzania' },
  { code: '64007', name: 'TTCL', country: 'Tanzania' },
  { code: '64009', name: 'Halotel', country: 'Tanzania' },
  { code: '64011', name: 'Smile', country: 'Tanzania' },
  // Uganda (641)
  { code: '64101', name: 'Airtel', country: 'Uganda' },
  { code: '64104', name: 'Tangerine', country: 'Uganda' },
  { code: '64110', name: 'MTN', country: 'Uganda' },
  { code: '64111', name: 'Uganda Telecom', country: 'Uganda' },
  { code: '64114', name: 'Africell', country: 'Uganda' },
  { code: '64122', name: 'Airtel', country: 'Uganda' },
  { code: '64133', name: 'Smile', country: 'Uganda' },
  { code: '64144', name: 'K2', country: 'Uganda' },
  // Rwanda (635)
  { code: '63510', name: 'MTN', country: 'Rwanda' },
  { code: '63513', name: 'Airtel', country: 'Rwanda' },
  { code: '63517', name: 'Olleh', country: 'Rwanda' },
  // Burundi (642)
  { code: '64201', name: 'Econet Leo', country: 'Burundi' },
  { code: '64203', name: 'Onatel', country: 'Burundi' },
  { code: '64208', name: 'Lumitel', country: 'Burundi' },
  { code: '64282', name: 'Econet Leo', country: 'Burundi' },
  // Ethiopia (636)
  { code: '63601', name: 'Ethio Telecom', country: 'Ethiopia' },
  // Zambia (645)
  { code: '64501', name: 'Airtel', country: 'Zambia' },
  { code: '64502', name: 'MTN', country: 'Zambia' },
  { code: '64503', name: 'Zamtel', country: 'Zambia' },
  // Malawi (650)
  { code: '65001', name: 'TNM', country: 'Malawi' },
  { code: '65002', name: 'Access', country: 'Malawi' },
  { code: '65003', name: 'MTL', country: 'Malawi' },
  { code: '65010', name: 'Airtel', country: 'Malawi' },
  // Zimbabwe (648)
  { code: '64801', name: 'NetOne', country: 'Zimbabwe' },
  { code: '64803', name: 'Telecel', country: 'Zimbabwe' },
  { code: '64804', name: 'Econet', country: 'Zimbabwe' },
  // Mozambique (643)
  { code: '64301', name: 'mCel', country: 'Mozambique' },
  { code: '64303', name: 'Movitel', country: 'Mozambique' },
  { code: '64304', name: 'Vodacom', country: 'Mozambique' },
  // Madagascar (646)
  { code: '64601', name: 'Airtel', country: 'Madagascar' },
  { code: '64602', name: 'Orange', country: 'Madagascar' },
  { code: '64604', name: 'Telma', country: 'Madagascar' },
  // Democratic Republic of the Congo (630)
  { code: '63001', name: 'Vodacom', country: 'DR Congo' },
  { code: '63002', name: 'Airtel', country: 'DR Congo' },
  { code: '63086', name: 'Orange', country: 'DR Congo' },
  { code: '63089', name: 'Orange', country: 'DR Congo' },
  { code: '63090', name: 'Africell', country: 'DR Congo' },
  // South Africa (655)
  { code: '65501', name: 'Vodacom', country: 'South Africa' },
  { code: '65502', name: 'Telkom', country: 'South Africa' },
  { code: '65507', name: 'Cell C', country: 'South Africa' },
  { code: '65510', name: 'MTN', country: 'South Africa' },
  { code: '65519', name: 'rain', country: 'South Africa' },
  // Eswatini (653)
  { code: '65302', name: 'Eswatini Mobile', country: 'Eswatini' },
  { code: '65310', name: 'MTN', country: 'Eswatini' },
  // Botswana (652)
  { code: '65201', name: 'Mascom', country: 'Botswana' },
  { code: '65202', name: 'Orange', country: 'Botswana' },
  { code: '65204', name: 'beMobile', country: 'Botswana' },
  // Côte d'Ivoire (612)
  { code: '61202', name: 'Moov', country: "Côte d'Ivoire" },
  { code: '61203', name: 'Orange', country: "Côte d'Ivoire" },
  { code: '61205', name: 'MTN', country: "Côte d'Ivoire" },
  // Senegal (608)
  { code: '60801', name: 'Orange', country: 'Senegal' },
  { code: '60802', name: 'Free', country: 'Senegal' },
  { code: '60803', name: 'Expresso', country: 'Senegal' },
  // Cameroon (624)
  { code: '62401', name: 'MTN', country: 'Cameroon' },
  { code: '62402', name: 'Orange', country: 'Cameroon' },
  { code: '62403', name: 'Camtel', country: 'Cameroon' },
  { code: '62404', name: 'Nexttel', country: 'Cameroon' },
  // Benin (616)
  { code: '61602', name: 'Moov', country: 'Benin' },
  { code: '61603', name: 'MTN', country: 'Benin' },
  // Togo (615)
  { code: '61501', name: 'Togo Cell', country: 'Togo' },
  { code: '61503', name: 'Moov', country: 'Togo' },
  // Burkina Faso (613)
  { code: '61301', name: 'Telmob', country: 'Burkina Faso' },
  { code: '61302', name: 'Orange', country: 'Burkina Faso' },
  { code: '61303', name: 'Telecel Faso', country: 'Burkina Faso' },
  // Mali (610)
  { code: '61001', name: 'Malitel', country: 'Mali' },
  { code: '61002', name: 'Orange', country: 'Mali' },
  { code: '61003', name: 'Telecel', country: 'Mali' },
  // Sierra Leone (619)
  { code: '61901', name: 'Orange', country: 'Sierra Leone' },
  { code: '61903', name: 'Africell', country: 'Sierra Leone' },
  { code: '61905', name: 'Africell', country: 'Sierra Leone' },
  { code: '61906', name: 'SierraTel', country: 'Sierra Leone' },
  // Liberia (618)
  { code: '61801', name: 'Lonestar Cell MTN', country: 'Liberia' },
  { code: '61807', name: 'Orange', country: 'Liberia' },
  // The Gambia (607)
  { code: '60701', name: 'Gamcel', country: 'The Gambia' },
  { code: '60702', name: 'Africell', country: 'The Gambia' },
  { code: '60703', name: 'Comium', country: 'The Gambia' },
  { code: '60704', name: 'QCell', country: 'The Gambia' },
];
