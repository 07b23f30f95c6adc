// Idempotency-Key as the hosted service implements it (as observed on it): for POST and PATCH,
// a replay of a finished request returns the stored answer (Idempotency-Replay: true); the same
// key while the first is still running is 409 with Retry-After: 1; the same key with another body
// is 422. Keys are scoped to the credential that sent them. notiform never relies on any of it.
export type IdempotencyVerdict =
  | { kind: "new" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "in-flight" }
  | { kind: "other-body" };

interface Entry {
  body: string;
  answer: { status: number; body: string } | undefined;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  /** Look the key up; a new key is marked in flight until settle(). */
  begin(scope: string, body: string): IdempotencyVerdict {
    const entry = this.entries.get(scope);
    if (entry === undefined) {
      this.entries.set(scope, { body, answer: undefined });
      return { kind: "new" };
    }
    if (entry.body !== body) return { kind: "other-body" };
    if (entry.answer === undefined) return { kind: "in-flight" };
    return { kind: "replay", ...entry.answer };
  }

  /** Store the answer of a handled request, or forget the key when nothing was done. */
  settle(scope: string, answer: { status: number; body: string } | undefined): void {
    const entry = this.entries.get(scope);
    if (entry === undefined || entry.answer !== undefined) return;
    if (answer === undefined) this.entries.delete(scope);
    else entry.answer = answer;
  }
}
