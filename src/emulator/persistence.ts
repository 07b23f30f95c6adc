// The --data file: the emulator's records as JSON, loaded at start when the file exists and
// written (to a temporary file, then renamed) after every write and on close. It must never hold
// a credential: API keys and the organization (partner access tokens) always come from the seed.
import { readFile, rename, writeFile } from "node:fs/promises";
import { NotiformError } from "../errors.js";
import type { EmulatorData } from "./store.js";

export type SavedData = Omit<EmulatorData, "apiKeys" | "organization">;

export async function loadDataFile(file: string): Promise<SavedData | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new NotiformError("USAGE", `the emulator data file ${file} cannot be read`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as Partial<SavedData>;
    if (parsed.environments?.development === undefined || parsed.environments.production === undefined)
      throw new Error("no environments");
    return parsed as SavedData;
  } catch (error) {
    throw new NotiformError("USAGE", `the emulator data file ${file} is not an emulator state`, {
      cause: error,
      hint: "Delete it to start from the seed again.",
    });
  }
}

/** Serialises saves so the file always holds the latest state; a failure is reported by flush(). */
export class DataSaver {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  save(data: EmulatorData): void {
    const { apiKeys: _keys, organization: _organization, ...rest } = data;
    const text = `${JSON.stringify(rest)}\n`;
    const temporary = `${this.file}.tmp`;
    this.chain = this.chain
      .then(async () => {
        await writeFile(temporary, text);
        await rename(temporary, this.file);
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) {
      const cause = this.failure;
      this.failure = undefined;
      throw new NotiformError("USAGE", `the emulator data file ${this.file} cannot be written`, { cause });
    }
  }
}
