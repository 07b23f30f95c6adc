// An extension endpoint the server may lack: its absence is an answer, not a failure.
import { isNotiformError } from "../errors.js";

/** The value, or undefined when the server lacks that extension endpoint. */
export async function unlessUnsupported<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return undefined;
    throw error;
  }
}
