import argon2, { type HashOptions } from "argon2";

/** Staff passwords: argon2id hashes, and a check against one that takes as long when there is no account. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  /** Whether the password is the hash's; false for a value that is no argon2 hash (an invited account's). */
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends a check's time against a fixed hash, so an unknown e-mail answers as slowly as a wrong password. */
  verifyDecoy(password: string): Promise<void>;
}

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes) everywhere but the tests, whose thousands of
 * sign-ins hash with 4 MiB and 2 passes (docs/decisions.md#71). A hash names its own parameters, so either kind
 * verifies anywhere.
 */
export function passwordHashing(nodeEnv: "development" | "test" | "production"): PasswordHashing {
  const options: HashOptions =
    nodeEnv === "test"
      ? { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 }
      : { type: argon2.argon2id };
  let decoy: Promise<string> | null = null;
  const verify = (hash: string, password: string) => argon2.verify(hash, password).catch(() => false);
  return {
    hash: (password) => argon2.hash(password, options),
    verify,
    async verifyDecoy(password) {
      decoy ??= argon2.hash("haven-decoy-password", options);
      await verify(await decoy, password);
    },
  };
}
