// `notiform whoami`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const whoamiCommand: Command = {
  command: "whoami",
  describe: "whoami (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform whoami` is not built yet");
  },
};
