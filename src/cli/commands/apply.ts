// `notiform apply`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const applyCommand: Command = {
  command: "apply",
  describe: "apply (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform apply` is not built yet");
  },
};
