import type { BodyType, ColorName } from '../schemas/results/vocabulary.js';

/** A small, real-world model range the sandbox models draw vehicles from. */
export interface VehicleModel {
  make: string;
  model: string;
  generation: string;
  bodyType: BodyType;
  yearFrom: number;
  yearTo: number;
  /** world manufacturer identifier used for VINs of this model */
  wmi: string;
  /** list price when new, EUR */
  newPriceEur: number;
}

export const VEHICLE_MODELS: readonly VehicleModel[] = [
  { make: 'Volkswagen', model: 'Golf', generation: 'Mk8', bodyType: 'hatchback', yearFrom: 2020, yearTo: 2026, wmi: 'WVW', newPriceEur: 30_000 },
  { make: 'Volkswagen', model: 'Tiguan', generation: 'AD1', bodyType: 'suv', yearFrom: 2016, yearTo: 2023, wmi: 'WVG', newPriceEur: 36_000 },
  { make: 'BMW', model: '3 Series', generation: 'G20', bodyType: 'sedan', yearFrom: 2019, yearTo: 2026, wmi: 'WBA', newPriceEur: 45_000 },
  { make: 'BMW', model: 'X3', generation: 'G01', bodyType: 'suv', yearFrom: 2017, yearTo: 2024, wmi: '5UX', newPriceEur: 52_000 },
  { make: 'Mercedes-Benz', model: 'C-Class', generation: 'W206', bodyType: 'sedan', yearFrom: 2021, yearTo: 2026, wmi: 'W1K', newPriceEur: 48_000 },
  { make: 'Audi', model: 'A4 Avant', generation: 'B9', bodyType: 'estate', yearFrom: 2016, yearTo: 2024, wmi: 'WAU', newPriceEur: 44_000 },
  { make: 'Renault', model: 'Clio', generation: 'V', bodyType: 'hatchback', yearFrom: 2019, yearTo: 2026, wmi: 'VF1', newPriceEur: 19_000 },
  { make: 'Peugeot', model: '3008', generation: 'P84', bodyType: 'suv', yearFrom: 2016, yearTo: 2023, wmi: 'VF3', newPriceEur: 33_000 },
  { make: 'Toyota', model: 'Corolla', generation: 'E210', bodyType: 'hatchback', yearFrom: 2019, yearTo: 2026, wmi: 'SB1', newPriceEur: 27_000 },
  { make: 'Toyota', model: 'RAV4', generation: 'XA50', bodyType: 'suv', yearFrom: 2019, yearTo: 2025, wmi: 'JTM', newPriceEur: 38_000 },
  { make: 'Ford', model: 'Focus', generation: 'Mk4', bodyType: 'hatchback', yearFrom: 2018, yearTo: 2025, wmi: 'WF0', newPriceEur: 25_000 },
  { make: 'Ford', model: 'Transit Custom', generation: 'V362', bodyType: 'van', yearFrom: 2013, yearTo: 2023, wmi: 'WF0', newPriceEur: 38_000 },
  { make: 'Skoda', model: 'Octavia Combi', generation: 'Mk4', bodyType: 'estate', yearFrom: 2020, yearTo: 2026, wmi: 'TMB', newPriceEur: 29_000 },
  { make: 'Tesla', model: 'Model 3', generation: 'Highland', bodyType: 'sedan', yearFrom: 2023, yearTo: 2026, wmi: 'LRW', newPriceEur: 42_000 },
  { make: 'Fiat', model: '500', generation: '312', bodyType: 'hatchback', yearFrom: 2008, yearTo: 2024, wmi: 'ZFA', newPriceEur: 16_000 },
  { make: 'Volvo', model: 'XC60', generation: 'SPA', bodyType: 'suv', yearFrom: 2017, yearTo: 2026, wmi: 'YV1', newPriceEur: 52_000 },
  { make: 'Mazda', model: 'MX-5', generation: 'ND', bodyType: 'convertible', yearFrom: 2015, yearTo: 2026, wmi: 'JMZ', newPriceEur: 31_000 },
  { make: 'Hyundai', model: 'Tucson', generation: 'NX4', bodyType: 'suv', yearFrom: 2021, yearTo: 2026, wmi: 'TMA', newPriceEur: 35_000 },
  { make: 'Toyota', model: 'Hilux', generation: 'AN120', bodyType: 'pickup', yearFrom: 2016, yearTo: 2026, wmi: 'AHT', newPriceEur: 42_000 },
  { make: 'BMW', model: '4 Series Coupe', generation: 'G22', bodyType: 'coupe', yearFrom: 2020, yearTo: 2026, wmi: 'WBA', newPriceEur: 50_000 },
  { make: 'Renault', model: 'Scenic', generation: 'IV', bodyType: 'mpv', yearFrom: 2016, yearTo: 2022, wmi: 'VF1', newPriceEur: 28_000 },
];

/** World manufacturer identifiers: who and where (ISO 3166-1 alpha-2). */
export const WMI_TABLE: Readonly<Record<string, { manufacturer: string; country: string }>> = {
  WVW: { manufacturer: 'Volkswagen', country: 'DE' },
  WVG: { manufacturer: 'Volkswagen', country: 'DE' },
  WBA: { manufacturer: 'BMW', country: 'DE' },
  '5UX': { manufacturer: 'BMW', country: 'US' },
  W1K: { manufacturer: 'Mercedes-Benz', country: 'DE' },
  WAU: { manufacturer: 'Audi', country: 'DE' },
  VF1: { manufacturer: 'Renault', country: 'FR' },
  VF3: { manufacturer: 'Peugeot', country: 'FR' },
  SB1: { manufacturer: 'Toyota', country: 'GB' },
  JTM: { manufacturer: 'Toyota', country: 'JP' },
  AHT: { manufacturer: 'Toyota', country: 'ZA' },
  WF0: { manufacturer: 'Ford', country: 'DE' },
  TMB: { manufacturer: 'Skoda', country: 'CZ' },
  LRW: { manufacturer: 'Tesla', country: 'CN' },
  ZFA: { manufacturer: 'Fiat', country: 'IT' },
  YV1: { manufacturer: 'Volvo', country: 'SE' },
  JMZ: { manufacturer: 'Mazda', country: 'JP' },
  TMA: { manufacturer: 'Hyundai', country: 'CZ' },
};

export const VEHICLE_COLORS: readonly { name: ColorName; hex: string }[] = [
  { name: 'white', hex: '#F2F2EF' },
  { name: 'black', hex: '#15171A' },
  { name: 'silver', hex: '#B8BCC0' },
  { name: 'grey', hex: '#5F6368' },
  { name: 'blue', hex: '#1F4E8C' },
  { name: 'red', hex: '#A3161A' },
  { name: 'green', hex: '#2E5E3A' },
  { name: 'brown', hex: '#5A3E2B' },
  { name: 'beige', hex: '#CDBE9E' },
  { name: 'yellow', hex: '#E7C21A' },
  { name: 'orange', hex: '#D9661F' },
];

/** Common colours dominate real fleets; weight the draw towards them. */
export const COMMON_COLORS = VEHICLE_COLORS.filter((color) => ['white', 'black', 'silver', 'grey', 'blue'].includes(color.name));
