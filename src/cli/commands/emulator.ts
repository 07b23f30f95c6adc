// `notiform emulator`: placeholder until its issue lands.
import { NotiformError } from "../../errors.js";
import type { Command } from "./index.js";

export const emulatorCommand: Command = {
  command: "emulator",
  describe: "emulator (not built yet)",
  builder: (yargs) => yargs,
  run: async () => {
    throw new NotiformError("INTERNAL", "`notiform emulator` is not built yet");
  },
};
