// Deterministic randomness: the same seed and home index always draw the same numbers, in the same order.

export type Rng = () => number;

/** mulberry32: small, fast, good enough for demo data. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A home's own generator: its plan draws with salt 0, and each kind of extra with its own salt. */
export const homeRng = (seed: number, index: number, salt = 0): Rng =>
  prng((seed * 1_000_003 + index * 7919 + salt * 104_729) >>> 0);

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
export const between = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
export const chance = (rng: Rng, p: number) => rng() < p;
