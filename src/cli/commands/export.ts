// `notiform export`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const exportCommand: Command = {
  command: "export",
  describe: "export (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform export` is not built yet");
  },
};
