// `notiform plan`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const planCommand: Command = {
  command: "plan",
  describe: "plan (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform plan` is not built yet");
  },
};
