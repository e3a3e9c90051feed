// Where the demo homes are and who owns them: Ottawa and three nearby towns, names of the region.

export interface Town {
  city: string;
  weight: number;
  postal: readonly string[];
  streets: readonly string[];
}

/** Ottawa and three nearby towns; street names as they are written there, accents included. */
export const DEMO_TOWNS: readonly Town[] = [
  {
    city: "Ottawa",
    weight: 0.46,
    postal: ["K1N", "K1S", "K1Y", "K1H", "K2P", "K1R", "K1Z", "K2A", "K1K", "K1G"],
    streets: [
      "Rideau Street",
      "Bank Street",
      "Elgin Street",
      "Somerset Street West",
      "Gladstone Avenue",
      "Carling Avenue",
      "Fifth Avenue",
      "Clemow Avenue",
      "Holland Avenue",
      "Wellington Street West",
      "Rue Beausoleil",
      "Avenue Laurier Est",
      "Chapel Street",
      "Fentiman Avenue",
      "Kirkwood Avenue",
    ],
  },
  {
    city: "Kanata",
    weight: 0.2,
    postal: ["K2K", "K2L", "K2M", "K2T", "K2V", "K2W"],
    streets: [
      "Hazeldean Road",
      "Castlefrank Road",
      "Terry Fox Drive",
      "Klondike Road",
      "Stonehaven Drive",
      "Abbeyhill Drive",
      "Kakulu Road",
      "Penfield Drive",
      "Walden Drive",
      "Goulbourn Forced Road",
    ],
  },
  {
    city: "Orléans",
    weight: 0.18,
    postal: ["K1C", "K1E", "K1W", "K4A"],
    streets: [
      "Boulevard Saint-Joseph",
      "Rue Duford",
      "Promenade de l'Île",
      "Chemin Innes",
      "Rue Jeanne-d'Arc",
      "Avenue Champlain",
      "Rue Vaillancourt",
      "Rue Dussère",
      "Boulevard Orléans",
      "Rue Chénier",
    ],
  },
  {
    city: "Barrhaven",
    weight: 0.16,
    postal: ["K2G", "K2J"],
    streets: [
      "Greenbank Road",
      "Strandherd Drive",
      "Longfields Drive",
      "Jockvale Road",
      "Fallowfield Road",
      "Cedarview Road",
      "Chapman Mills Drive",
      "Kilbirnie Drive",
      "Highbury Park Drive",
    ],
  },
];

export const FIRST_NAMES = [
  "Émilie",
  "François",
  "Chloé",
  "Hélène",
  "Zoë",
  "Amélie",
  "Jérôme",
  "Noémie",
  "Gaël",
  "Mathéo",
  "Liam",
  "Olivia",
  "Noah",
  "Emma",
  "Aarav",
  "Priya",
  "Wei",
  "Mei",
  "Mohammed",
  "Fatima",
  "Ethan",
  "Ava",
  "Lucas",
  "Sophie",
  "Benjamin",
  "Charlotte",
  "Daniel",
  "Grace",
  "Samuel",
  "Isabelle",
  "Owen",
  "Maëlle",
  "Raphaël",
  "Jasmine",
  "Kwame",
  "Ngozi",
  "Mateo",
  "Sofia",
  "Connor",
  "Aisling",
];
export const LAST_NAMES = [
  "Tremblay",
  "Gagnon",
  "Roy",
  "Côté",
  "Bouchard",
  "Gauthier",
  "Morin",
  "Lavoie",
  "Fortin",
  "Gélinas",
  "Bélanger",
  "Lévesque",
  "Pelletier",
  "Bergeron",
  "Smith",
  "Brown",
  "Wilson",
  "MacDonald",
  "Campbell",
  "Anderson",
  "Thompson",
  "Martin",
  "Nguyen",
  "Patel",
  "Singh",
  "Chen",
  "Li",
  "Wong",
  "Haddad",
  "Okafor",
  "O'Brien",
  "Murphy",
  "Kowalski",
  "Novak",
  "Ahmed",
  "Khan",
  "Fraser",
  "Sinclair",
  "St-Pierre",
  "Ouellette",
];

/** A name as an e-mail address part: accents dropped, letters and digits only. */
export const ascii = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "")
    .toLowerCase();

/** The town whose share of the cumulative weights holds r (0 ≤ r < 1). */
export function pickTown(r: number): Town {
  let cumulative = 0;
  for (const town of DEMO_TOWNS) {
    cumulative += town.weight;
    if (r < cumulative) return town;
  }
  return DEMO_TOWNS[0]!;
}
