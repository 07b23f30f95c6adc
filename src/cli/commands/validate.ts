// `notiform validate`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const validateCommand: Command = {
  command: "validate",
  describe: "validate (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform validate` is not built yet");
  },
};
